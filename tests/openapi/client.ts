// A small client of the Liaison API typed by what openapi-typescript generated from
// GET /api/v1/openapi.json (liaison-api.d.ts beside this file when the test openapi_client runs),
// reached through the operationIds: the test compiles it with tsc --noEmit (skipLibCheck: the
// generated declarations are read, not checked themselves). The lines marked @ts-expect-error
// must fail to compile (a field the API does not have, a value of the wrong type): if the generated
// types let them through, tsc reports the directive as unused and the test fails.
import type { operations } from "./liaison-api";

// Each type named outright, so that a document without that operation, status or body fails to compile.
type ListContactsQuery = NonNullable<operations["listContacts"]["parameters"]["query"]>;
type ContactPage = operations["listContacts"]["responses"][200]["content"]["application/json"];
type NewContact = operations["createContact"]["requestBody"]["content"]["application/json"];
type CreatedContact = operations["createContact"]["responses"][201]["content"]["application/json"];
type StageMove = operations["moveDealStage"]["requestBody"]["content"]["application/json"];
type MovedDeal = operations["moveDealStage"]["responses"][200]["content"]["application/json"];
type ApiError = operations["createContact"]["responses"][422]["content"]["application/json"];

class LiaisonClient {
  constructor(
    private readonly baseUrl: string, // "https://127.0.0.1:8443/api/v1"
    private readonly token: string, // an API key (lk_…) or an access token
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const init: RequestInit = {
      method,
      headers: { Authorization: `Bearer ${this.token}`, "Content-Type": "application/json" },
    };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await fetch(this.baseUrl + path, init);
    if (!response.ok) {
      const error = (await response.json()) as ApiError;
      throw new Error(`${error.error.code}: ${error.error.message}`);
    }
    return (await response.json()) as T;
  }

  listContacts(query: ListContactsQuery): Promise<ContactPage> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) search.set(name, String(value));
    }
    return this.call<ContactPage>("GET", `/contacts?${search}`);
  }

  createContact(contact: NewContact): Promise<CreatedContact> {
    return this.call<CreatedContact>("POST", "/contacts", contact);
  }

  moveDealStage(dealId: string, move: StageMove): Promise<MovedDeal> {
    return this.call<MovedDeal>("PATCH", `/deals/${encodeURIComponent(dealId)}/stage`, move);
  }
}

export async function example(client: LiaisonClient): Promise<string[]> {
  const page = await client.listContacts({ page: 1, limit: 20, search: "Ayşe", sort: "-createdAt" });
  const total: number | undefined = page.pagination.total;
  const names = page.data.map((c) => `${c.firstName ?? ""} ${c.lastName ?? ""}`.trim());

  const created = await client.createContact({
    firstName: "Ayşe",
    lastName: "Yılmaz",
    email: "ayse@example.com",
    tags: ["vip"],
    address: { city: "İstanbul", country: "TR" },
    leadScore: 80,
    customFields: { industry: "textiles", employees: 40 },
  });
  const id: string | undefined = created.data.id;
  await client.moveDealStage("deal_1", { stage: "proposal", note: "Sent the offer" });

  // @ts-expect-error `firstname` is not a field of a contact (it is firstName)
  await client.createContact({ firstname: "Ayşe" });
  // @ts-expect-error leadScore is a number
  await client.createContact({ firstName: "Ayşe", leadScore: "high" });
  // @ts-expect-error limit is a number
  await client.listContacts({ limit: "20" });
  // @ts-expect-error a stage move needs its stage
  await client.moveDealStage("deal_1", { note: "called" });

  return [...names, String(total), id ?? ""];
}

export { LiaisonClient };
