#include "model/core/migrations.h"

const QVector<Migration> &migrations()
{
    static const QVector<Migration> list = {
        {1,
         "foundation: users, credentials, contacts, outbox",
         {
             R"(CREATE TABLE users (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 email TEXT NOT NULL,
                 email_norm TEXT NOT NULL UNIQUE,
                 name TEXT NOT NULL,
                 role TEXT NOT NULL DEFAULT 'agent',
                 password_hash TEXT NOT NULL,
                 created_at TEXT NOT NULL,
                 updated_at TEXT NOT NULL))",
             R"(CREATE TABLE api_keys (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 name TEXT NOT NULL,
                 key_prefix TEXT NOT NULL,
                 key_hash TEXT NOT NULL UNIQUE,
                 scopes TEXT NOT NULL,
                 created_by TEXT,
                 created_at TEXT NOT NULL,
                 last_used_at TEXT,
                 revoked_at TEXT))",
             R"(CREATE TABLE refresh_tokens (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                 token_hash TEXT NOT NULL UNIQUE,
                 created_at TEXT NOT NULL,
                 expires_at TEXT NOT NULL,
                 revoked_at TEXT))",
             R"(CREATE TABLE idempotency_keys (
                 credential TEXT NOT NULL,
                 key TEXT NOT NULL,
                 method TEXT NOT NULL,
                 path TEXT NOT NULL,
                 status INTEGER NOT NULL,
                 headers TEXT NOT NULL,
                 body BLOB NOT NULL,
                 created_at TEXT NOT NULL,
                 PRIMARY KEY (credential, key)))",
             "CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at)",
             R"(CREATE TABLE contacts (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 first_name TEXT NOT NULL DEFAULT '',
                 last_name TEXT NOT NULL DEFAULT '',
                 email TEXT,
                 email_norm TEXT UNIQUE,
                 phone TEXT,
                 phone_e164 TEXT UNIQUE,
                 company TEXT NOT NULL DEFAULT '',
                 position TEXT NOT NULL DEFAULT '',
                 address TEXT NOT NULL DEFAULT '{}',
                 tags TEXT NOT NULL DEFAULT '[]',
                 custom_fields TEXT NOT NULL DEFAULT '{}',
                 source TEXT NOT NULL DEFAULT '',
                 lead_score INTEGER NOT NULL DEFAULT 0,
                 last_message_at TEXT,
                 total_messages INTEGER NOT NULL DEFAULT 0,
                 sentiment TEXT,
                 created_at TEXT NOT NULL,
                 updated_at TEXT NOT NULL))",
             // PostgreSQL keeps the custom fields as jsonb (read by the segment rules and their trigger).
             postgresOnly("ALTER TABLE contacts ALTER COLUMN custom_fields DROP DEFAULT"),
             postgresOnly("ALTER TABLE contacts ALTER COLUMN custom_fields TYPE jsonb USING custom_fields::jsonb"),
             postgresOnly("ALTER TABLE contacts ALTER COLUMN custom_fields SET DEFAULT '{}'"),
             "CREATE INDEX contacts_created ON contacts(created_at, seq)",
             "CREATE INDEX contacts_source ON contacts(source, created_at)",
             R"(CREATE TABLE contact_tags (
                 contact_seq INTEGER NOT NULL REFERENCES contacts(seq) ON DELETE CASCADE,
                 tag_norm TEXT NOT NULL,
                 tag TEXT NOT NULL,
                 PRIMARY KEY (contact_seq, tag_norm)) WITHOUT ROWID)",
             "CREATE INDEX contact_tags_tag ON contact_tags(tag_norm, contact_seq)",
             R"(CREATE TABLE contact_notes (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 contact_seq INTEGER NOT NULL REFERENCES contacts(seq) ON DELETE CASCADE,
                 content TEXT NOT NULL,
                 created_by TEXT,
                 created_at TEXT NOT NULL))",
             "CREATE INDEX contact_notes_contact ON contact_notes(contact_seq, seq)",
             // The search index: one document per contact (rowid = contacts.seq), written by the
             // repository in the same transaction as the contact. Prefix indexes make "ahm*" cheap.
             sqliteOnly("CREATE VIRTUAL TABLE contacts_fts USING fts5(doc, tokenize = \"unicode61 remove_diacritics "
                        "2\", prefix = '1 2 3')"),
             R"(CREATE TABLE outbox (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 event TEXT NOT NULL,
                 payload TEXT NOT NULL,
                 created_at TEXT NOT NULL))",
         }},
        {2,
         "segments: segments, static membership; indexes the segment rules use on contacts",
         {
             // filters: the normalised rules as JSON (NULL for a static segment made without rules).
             R"(CREATE TABLE segments (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 name TEXT NOT NULL,
                 name_norm TEXT NOT NULL UNIQUE,
                 description TEXT NOT NULL DEFAULT '',
                 filters TEXT,
                 is_dynamic INTEGER NOT NULL DEFAULT 1,
                 created_by TEXT,
                 created_at TEXT NOT NULL,
                 updated_at TEXT NOT NULL))",
             // A deleted contact leaves every static segment through the cascade.
             R"(CREATE TABLE segment_members (
                 segment_seq INTEGER NOT NULL REFERENCES segments(seq) ON DELETE CASCADE,
                 contact_seq INTEGER NOT NULL REFERENCES contacts(seq) ON DELETE CASCADE,
                 added_at TEXT NOT NULL,
                 PRIMARY KEY (segment_seq, contact_seq)) WITHOUT ROWID)",
             "CREATE INDEX segment_members_contact ON segment_members(contact_seq)",
             // A narrow copy of the scalar columns rules compare: a rule on these (with lead score
             // first) is answered from this index alone, without reading the wide contact rows.
             "CREATE INDEX contacts_segment_scalars ON contacts(lead_score, source COLLATE NOCASE, total_messages, "
             "last_message_at, sentiment, created_at)",
             "CREATE INDEX contacts_total_messages ON contacts(total_messages)",
             "CREATE INDEX contacts_last_message ON contacts(last_message_at)",
             "CREATE INDEX contacts_sentiment ON contacts(sentiment)",
         }},
        {3,
         "deals: pipelines, stages, deals, deal activities; the default pipeline",
         {
             R"(CREATE TABLE pipelines (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 name TEXT NOT NULL,
                 name_norm TEXT NOT NULL UNIQUE,
                 is_default INTEGER NOT NULL DEFAULT 0,
                 created_at TEXT NOT NULL,
                 updated_at TEXT NOT NULL))",
             // kind: open, won or lost. Every pipeline ends with the closing stages won and lost.
             R"(CREATE TABLE pipeline_stages (
                 seq INTEGER PRIMARY KEY,
                 pipeline_id TEXT NOT NULL REFERENCES pipelines(id) ON DELETE CASCADE,
                 key TEXT NOT NULL,
                 name TEXT NOT NULL,
                 position INTEGER NOT NULL,
                 probability INTEGER NOT NULL,
                 rotten_days INTEGER,
                 kind TEXT NOT NULL DEFAULT 'open',
                 UNIQUE (pipeline_id, key)))",
             // A deal's stage must exist in its pipeline (the composite key refuses removing a stage
             // that still holds deals); deleting its contact or owner unlinks it.
             R"(CREATE TABLE deals (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 name TEXT NOT NULL,
                 value REAL NOT NULL DEFAULT 0,
                 currency TEXT NOT NULL,
                 pipeline_id TEXT NOT NULL,
                 stage TEXT NOT NULL,
                 probability INTEGER NOT NULL,
                 contact_id TEXT REFERENCES contacts(id) ON DELETE SET NULL,
                 assigned_to TEXT REFERENCES users(id) ON DELETE SET NULL,
                 expected_close_date TEXT,
                 description TEXT NOT NULL DEFAULT '',
                 custom_fields TEXT NOT NULL DEFAULT '{}',
                 closed_value REAL,
                 closed_at TEXT,
                 lost_reason TEXT,
                 competitor_name TEXT,
                 last_activity_at TEXT NOT NULL,
                 created_at TEXT NOT NULL,
                 updated_at TEXT NOT NULL,
                 FOREIGN KEY (pipeline_id, stage) REFERENCES pipeline_stages(pipeline_id, key)))",
             "CREATE INDEX deals_board ON deals(pipeline_id, stage, currency, value, probability, closed_value)",
             "CREATE INDEX deals_stage_activity ON deals(pipeline_id, stage, last_activity_at)",
             // The board's column order (DealQuery::boardOrder): earliest expected close first, undated last.
             "CREATE INDEX deals_board_order ON deals(pipeline_id, stage, coalesce(expected_close_date, '9999-12-31'), "
             "seq)",
             "CREATE INDEX deals_created ON deals(created_at, seq)",
             "CREATE INDEX deals_contact ON deals(contact_id)",
             "CREATE INDEX deals_assigned ON deals(assigned_to)",
             R"(CREATE TABLE deal_activities (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 deal_seq INTEGER NOT NULL REFERENCES deals(seq) ON DELETE CASCADE,
                 type TEXT NOT NULL,
                 content TEXT NOT NULL DEFAULT '',
                 from_stage TEXT,
                 to_stage TEXT,
                 user_id TEXT,
                 user_name TEXT,
                 created_at TEXT NOT NULL))",
             "CREATE INDEX deal_activities_deal ON deal_activities(deal_seq, seq)",
             // Running totals per pipeline, stage and currency, kept by the repository in the
             // transaction of every deal write: the pipeline summary reads a few rows, not every deal.
             R"(CREATE TABLE deal_totals (
                 pipeline_id TEXT NOT NULL,
                 stage TEXT NOT NULL,
                 currency TEXT NOT NULL,
                 deals INTEGER NOT NULL,
                 value REAL NOT NULL,
                 weighted REAL NOT NULL,
                 PRIMARY KEY (pipeline_id, stage, currency)))",
             sqliteOnly(R"(INSERT INTO pipelines (id, name, name_norm, is_default, created_at, updated_at)
                VALUES ('pipeline_default', 'Sales', 'sales', 1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
                        strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))"),
             postgresOnly(R"(INSERT INTO pipelines (id, name, name_norm, is_default, created_at, updated_at)
                VALUES ('pipeline_default', 'Sales', 'sales', 1,
                        to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                        to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))"),
             R"(INSERT INTO pipeline_stages (pipeline_id, key, name, position, probability, rotten_days, kind) VALUES
                ('pipeline_default', 'lead', 'Lead', 0, 10, NULL, 'open'),
                ('pipeline_default', 'contact', 'Contact', 1, 20, NULL, 'open'),
                ('pipeline_default', 'proposal', 'Proposal', 2, 50, NULL, 'open'),
                ('pipeline_default', 'negotiation', 'Negotiation', 3, 80, NULL, 'open'),
                ('pipeline_default', 'won', 'Won', 4, 100, NULL, 'won'),
                ('pipeline_default', 'lost', 'Lost', 5, 0, NULL, 'lost'))",
         }},
        {4,
         "tasks: tasks, task notes; reminder and overdue bookkeeping for the scheduler",
         {
             // due_date: "YYYY-MM-DD" (all day) or ISO UTC; due_at: the due instant in UTC (an all-day
             // task: the start of its day in the tasks time zone). The scheduler's work queue:
             // remind_at (due_at - reminder_before) is set only while task.reminder is still to fire,
             // overdue_at (due_at; an all-day task: the end of its day) only while task.overdue is.
             // deal_id has no foreign key so that this migration does not depend on the deals area's.
             R"(CREATE TABLE tasks (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 title TEXT NOT NULL,
                 description TEXT NOT NULL DEFAULT '',
                 type TEXT NOT NULL DEFAULT 'task',
                 status TEXT NOT NULL DEFAULT 'pending',
                 priority TEXT NOT NULL DEFAULT 'medium',
                 due_date TEXT,
                 due_all_day INTEGER NOT NULL DEFAULT 0,
                 due_at TEXT,
                 assigned_to TEXT REFERENCES users(id) ON DELETE SET NULL,
                 contact_id TEXT REFERENCES contacts(id) ON DELETE SET NULL,
                 deal_id TEXT,
                 reminder_enabled INTEGER NOT NULL DEFAULT 0,
                 reminder_before INTEGER NOT NULL DEFAULT 15,
                 reminder_sent_at TEXT,
                 remind_at TEXT,
                 overdue_at TEXT,
                 recurrence TEXT,
                 series_start TEXT,
                 previous_task_id TEXT,
                 next_task_id TEXT,
                 completed_at TEXT,
                 completed_by TEXT,
                 overdue_notified_at TEXT,
                 created_by TEXT,
                 created_at TEXT NOT NULL,
                 updated_at TEXT NOT NULL))",
             "CREATE INDEX tasks_due ON tasks(due_at, seq)",
             "CREATE INDEX tasks_status_due ON tasks(status, due_at)",
             "CREATE INDEX tasks_due_date ON tasks(due_date) WHERE due_all_day = 1",
             "CREATE INDEX tasks_contact ON tasks(contact_id)",
             "CREATE INDEX tasks_deal ON tasks(deal_id)",
             "CREATE INDEX tasks_assigned ON tasks(assigned_to)",
             "CREATE INDEX tasks_remind ON tasks(remind_at)",
             "CREATE INDEX tasks_overdue ON tasks(overdue_at)",
             R"(CREATE TABLE task_notes (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 task_seq INTEGER NOT NULL REFERENCES tasks(seq) ON DELETE CASCADE,
                 content TEXT NOT NULL,
                 created_by TEXT,
                 created_at TEXT NOT NULL))",
             "CREATE INDEX task_notes_task ON task_notes(task_seq, seq)",
         }},
        {5,
         "webhooks: subscriptions, deliveries, attempts, outbox cursor, incoming endpoints and calls",
         {
             R"(CREATE TABLE webhooks (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 url TEXT NOT NULL,
                 events TEXT NOT NULL,
                 secret TEXT NOT NULL,
                 description TEXT NOT NULL DEFAULT '',
                 active INTEGER NOT NULL DEFAULT 1,
                 failure_count INTEGER NOT NULL DEFAULT 0,
                 disabled_reason TEXT,
                 disabled_at TEXT,
                 after_outbox_seq INTEGER NOT NULL DEFAULT 0,
                 created_by TEXT,
                 created_at TEXT NOT NULL,
                 updated_at TEXT NOT NULL))",
             // One row per (subscription, event): the unit that is retried. body holds the exact
             // bytes that are signed and sent, so every retry sends the same bytes.
             R"(CREATE TABLE webhook_deliveries (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
                 event_id TEXT NOT NULL,
                 event TEXT NOT NULL,
                 body BLOB NOT NULL,
                 kind TEXT NOT NULL DEFAULT 'event',
                 state TEXT NOT NULL DEFAULT 'pending',
                 attempts INTEGER NOT NULL DEFAULT 0,
                 failures INTEGER NOT NULL DEFAULT 0,
                 next_attempt_at TEXT,
                 last_status INTEGER,
                 last_error TEXT,
                 created_at TEXT NOT NULL,
                 updated_at TEXT NOT NULL))",
             "CREATE UNIQUE INDEX webhook_deliveries_event ON webhook_deliveries(webhook_id, event_id) "
             "WHERE kind = 'event'",
             // The queue of each subscription in event order, and the next retry due.
             "CREATE INDEX webhook_deliveries_queue ON webhook_deliveries(webhook_id, seq) "
             "WHERE state IN ('pending', 'in_flight') AND kind = 'event'",
             "CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE state = 'pending'",
             "CREATE INDEX webhook_deliveries_manual ON webhook_deliveries(seq) WHERE state = 'pending' AND kind != "
             "'event'",
             "CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries(webhook_id, seq)",
             R"(CREATE TABLE webhook_attempts (
                 seq INTEGER PRIMARY KEY,
                 delivery_seq INTEGER NOT NULL REFERENCES webhook_deliveries(seq) ON DELETE CASCADE,
                 webhook_id TEXT NOT NULL,
                 attempt INTEGER NOT NULL,
                 started_at TEXT NOT NULL,
                 finished_at TEXT,
                 status_code INTEGER,
                 error TEXT,
                 latency_ms INTEGER,
                 response_excerpt TEXT,
                 next_retry_at TEXT,
                 success INTEGER NOT NULL DEFAULT 0))",
             "CREATE INDEX webhook_attempts_webhook ON webhook_attempts(webhook_id, seq)",
             "CREATE INDEX webhook_attempts_delivery ON webhook_attempts(delivery_seq)",
             // How far the dispatcher has fanned the outbox out (the outbox itself stays read-only).
             R"(CREATE TABLE webhook_cursor (
                 name TEXT PRIMARY KEY,
                 outbox_seq INTEGER NOT NULL))",
             R"(CREATE TABLE incoming_webhooks (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 name TEXT NOT NULL,
                 action TEXT NOT NULL,
                 secret TEXT,
                 created_by TEXT,
                 created_at TEXT NOT NULL,
                 last_call_at TEXT,
                 call_count INTEGER NOT NULL DEFAULT 0))",
             R"(CREATE TABLE incoming_webhook_calls (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 endpoint_id TEXT NOT NULL REFERENCES incoming_webhooks(id) ON DELETE CASCADE,
                 received_at TEXT NOT NULL,
                 event TEXT NOT NULL DEFAULT '',
                 outcome TEXT NOT NULL,
                 status_code INTEGER NOT NULL,
                 error TEXT,
                 result_id TEXT,
                 body BLOB NOT NULL))",
             "CREATE INDEX incoming_webhook_calls_endpoint ON incoming_webhook_calls(endpoint_id, seq)",
         }},
        {6,
         "performance: task indexes in list order; customField values for segment rules",
         {
             // Tasks: every list is ordered by (coalesce(due_at, '~'), seq): by due instant, undated
             // last, then by creation (see TaskRepository). These indexes hold that order behind each
             // common filter, so ORDER BY ... LIMIT/OFFSET reads a range of one index instead of
             // sorting every match. They replace the single-column and (status, due_at) indexes of
             // migration 4 (contact_id, deal_id and assigned_to still lead an index, for the foreign keys).
             "DROP INDEX tasks_due",
             "DROP INDEX tasks_status_due",
             "DROP INDEX tasks_due_date",
             "DROP INDEX tasks_contact",
             "DROP INDEX tasks_deal",
             "DROP INDEX tasks_assigned",
             // Past (key, seq) they carry the columns the due, status and priority conditions read, so
             // that a count or a filtered page reads the index alone, not one table row per candidate.
             "CREATE INDEX tasks_order ON tasks(coalesce(due_at, '~'), seq, due_all_day, due_date, due_at, status)",
             "CREATE INDEX tasks_status_order ON tasks(status, coalesce(due_at, '~'), seq, due_all_day, due_date, "
             "due_at, priority)",
             "CREATE INDEX tasks_assigned_order ON tasks(assigned_to, coalesce(due_at, '~'), seq, due_all_day, "
             "due_date, due_at, status)",
             "CREATE INDEX tasks_contact_order ON tasks(contact_id, coalesce(due_at, '~'), seq)",
             "CREATE INDEX tasks_deal_order ON tasks(deal_id, coalesce(due_at, '~'), seq)",
             // Open tasks (overdue, upcoming) in list order, with what the due conditions read; the
             // repository asks for them as "(status IN ('pending', 'in_progress')) = 1".
             "CREATE INDEX tasks_open_order ON tasks((status IN ('pending', 'in_progress')), coalesce(due_at, '~'), "
             "seq, due_all_day, due_date, due_at, status)",
             // Segments: the top-level values of contacts.custom_fields, one row per contact and key, so
             // that customField rules read an index instead of json_extract over every contact.
             // type: json_type; value_text: CAST(json_extract(...) AS TEXT) (NULL for JSON null);
             // value_num: the value of an integer or real, else NULL (no declared type: stored as is).
             sqliteOnly(R"(CREATE TABLE contact_custom_fields (
                 contact_seq INTEGER NOT NULL REFERENCES contacts(seq) ON DELETE CASCADE,
                 key TEXT NOT NULL,
                 type TEXT NOT NULL,
                 value_text TEXT,
                 value_num,
                 PRIMARY KEY (contact_seq, key)) WITHOUT ROWID)"),
             postgresOnly(R"(CREATE TABLE contact_custom_fields (
                 contact_seq BIGINT NOT NULL REFERENCES contacts(seq) ON DELETE CASCADE,
                 key TEXT COLLATE "C" NOT NULL,
                 type TEXT COLLATE "C" NOT NULL,
                 value_text TEXT COLLATE "C",
                 value_num DOUBLE PRECISION,
                 PRIMARY KEY (contact_seq, key)))"),
             // Kept by triggers, in the transaction of whatever writes a contact (the repository, the
             // widget, an import): INSERT OR IGNORE keeps the first of duplicate keys, as json_extract
             // reads them; malformed JSON gives no rows. Deleting a contact cascades.
             sqliteOnly(R"(CREATE TRIGGER contacts_custom_fields_insert AFTER INSERT ON contacts
                WHEN NEW.custom_fields != '{}' BEGIN
                  INSERT OR IGNORE INTO contact_custom_fields (contact_seq, key, type, value_text, value_num)
                  SELECT NEW.seq, j.key, j.type, CAST(j.value AS TEXT),
                         CASE WHEN j.type IN ('integer', 'real') THEN j.value END
                  FROM json_each(NEW.custom_fields) j
                  WHERE json_valid(NEW.custom_fields) AND json_type(NEW.custom_fields) = 'object';
                END)"),
             sqliteOnly(R"(CREATE TRIGGER contacts_custom_fields_update AFTER UPDATE OF custom_fields ON contacts
                WHEN OLD.custom_fields IS NOT NEW.custom_fields BEGIN
                  DELETE FROM contact_custom_fields WHERE contact_seq = NEW.seq;
                  INSERT OR IGNORE INTO contact_custom_fields (contact_seq, key, type, value_text, value_num)
                  SELECT NEW.seq, j.key, j.type, CAST(j.value AS TEXT),
                         CASE WHEN j.type IN ('integer', 'real') THEN j.value END
                  FROM json_each(NEW.custom_fields) j
                  WHERE json_valid(NEW.custom_fields) AND json_type(NEW.custom_fields) = 'object';
                END)"),
             // The contacts stored so far.
             sqliteOnly(R"(INSERT OR IGNORE INTO contact_custom_fields (contact_seq, key, type, value_text, value_num)
                SELECT c.seq, j.key, j.type, CAST(j.value AS TEXT),
                       CASE WHEN j.type IN ('integer', 'real') THEN j.value END
                FROM contacts c, json_each(c.custom_fields) j
                WHERE c.custom_fields != '{}' AND json_valid(c.custom_fields) AND json_type(c.custom_fields) = 'object')"),
             // PostgreSQL: the same rows from the jsonb column, with SQLite's json_each names for the
             // types (text, integer, real, true, false, null, object, array) and its text of a value
             // (a boolean as 1 or 0), so that the segment rules read both alike. jsonb keeps the last
             // of duplicate keys (the API never stores any).
             postgresOnly(R"(CREATE FUNCTION contact_custom_field_rows(fields jsonb)
                RETURNS TABLE (key text, type text, value_text text, value_num double precision)
                LANGUAGE sql IMMUTABLE AS $$
                  SELECT j.key,
                         CASE jsonb_typeof(j.value)
                           WHEN 'string' THEN 'text'
                           WHEN 'number' THEN CASE WHEN j.value::text ~ '^-?[0-9]+$' THEN 'integer' ELSE 'real' END
                           WHEN 'boolean' THEN j.value::text
                           ELSE jsonb_typeof(j.value) END,
                         CASE jsonb_typeof(j.value)
                           WHEN 'string' THEN j.value #>> '{}'
                           WHEN 'boolean' THEN CASE WHEN j.value = 'true'::jsonb THEN '1' ELSE '0' END
                           WHEN 'null' THEN NULL
                           ELSE j.value::text END,
                         CASE WHEN jsonb_typeof(j.value) = 'number' THEN (j.value::text)::double precision END
                  FROM jsonb_each(CASE WHEN jsonb_typeof(fields) = 'object' THEN fields ELSE '{}'::jsonb END) j
                $$)"),
             postgresOnly(R"(CREATE FUNCTION contacts_custom_fields_sync() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                  IF TG_OP = 'UPDATE' THEN
                    IF OLD.custom_fields IS NOT DISTINCT FROM NEW.custom_fields THEN
                      RETURN NEW;
                    END IF;
                    DELETE FROM contact_custom_fields WHERE contact_seq = NEW.seq;
                  END IF;
                  INSERT INTO contact_custom_fields (contact_seq, key, type, value_text, value_num)
                  SELECT NEW.seq, f.key, f.type, f.value_text, f.value_num
                  FROM contact_custom_field_rows(NEW.custom_fields) f;
                  RETURN NEW;
                END
                $$)"),
             postgresOnly("CREATE TRIGGER contacts_custom_fields_sync AFTER INSERT OR UPDATE OF custom_fields ON "
                          "contacts FOR EACH ROW EXECUTE FUNCTION contacts_custom_fields_sync()"),
             postgresOnly(R"(INSERT INTO contact_custom_fields (contact_seq, key, type, value_text, value_num)
                SELECT c.seq, f.key, f.type, f.value_text, f.value_num
                FROM contacts c, contact_custom_field_rows(c.custom_fields) f)"),
             // Indexed after the backfill (building from filled rows is faster). _text: equals (NOCASE),
             // contains, startsWith, empty; _num: numbers compared or equal; _string: strings compared.
             "CREATE INDEX contact_custom_fields_text ON contact_custom_fields(key, value_text COLLATE NOCASE)",
             "CREATE INDEX contact_custom_fields_num ON contact_custom_fields(key, value_num) "
             "WHERE value_num IS NOT NULL",
             "CREATE INDEX contact_custom_fields_string ON contact_custom_fields(key, value_text) WHERE type = 'text'",
         }},
        {7,
         "inbox: conversations, messages, web widget visitors",
         {
             // external_id: the contact's address on the channel (phone, chat id, IGSID, visitor id).
             // first_response_seconds: from the first incoming message to the first outgoing one after it.
             R"(CREATE TABLE conversations (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
                 channel TEXT NOT NULL,
                 channel_id TEXT NOT NULL DEFAULT '',
                 external_id TEXT,
                 status TEXT NOT NULL DEFAULT 'open',
                 assigned_to TEXT REFERENCES users(id) ON DELETE SET NULL,
                 tags TEXT NOT NULL DEFAULT '[]',
                 source TEXT NOT NULL DEFAULT '',
                 first_incoming_at TEXT,
                 first_response_seconds INTEGER,
                 total_messages INTEGER NOT NULL DEFAULT 0,
                 unread_count INTEGER NOT NULL DEFAULT 0,
                 last_message_text TEXT,
                 last_message_direction TEXT,
                 last_message_at TEXT,
                 last_activity_at TEXT NOT NULL,
                 closed_at TEXT,
                 created_at TEXT NOT NULL,
                 updated_at TEXT NOT NULL))",
             "CREATE INDEX conversations_activity ON conversations(last_activity_at, seq)",
             "CREATE INDEX conversations_status ON conversations(status, last_activity_at)",
             "CREATE INDEX conversations_contact ON conversations(contact_id, channel, external_id)",
             "CREATE INDEX conversations_assigned ON conversations(assigned_to)",
             R"(CREATE TABLE messages (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 conversation_seq INTEGER NOT NULL REFERENCES conversations(seq) ON DELETE CASCADE,
                 conversation_id TEXT NOT NULL,
                 contact_id TEXT NOT NULL,
                 channel TEXT NOT NULL,
                 direction TEXT NOT NULL,
                 type TEXT NOT NULL DEFAULT 'text',
                 text TEXT NOT NULL DEFAULT '',
                 media_url TEXT,
                 caption TEXT,
                 filename TEXT,
                 payload TEXT,
                 status TEXT NOT NULL,
                 sent_at TEXT,
                 delivered_at TEXT,
                 read_at TEXT,
                 failed_at TEXT,
                 failed_reason TEXT,
                 provider_id TEXT,
                 sender_type TEXT NOT NULL DEFAULT '',
                 sender_id TEXT,
                 sender_name TEXT NOT NULL DEFAULT '',
                 sentiment_score INTEGER NOT NULL DEFAULT 0,
                 created_at TEXT NOT NULL))",
             "CREATE INDEX messages_conversation ON messages(conversation_seq, seq)",
             "CREATE INDEX messages_contact ON messages(contact_id, direction, seq)",
             "CREATE INDEX messages_created ON messages(created_at)",
             "CREATE UNIQUE INDEX messages_provider ON messages(channel, provider_id) WHERE provider_id IS NOT NULL",
             R"(CREATE TABLE widget_visitors (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 token_hash TEXT NOT NULL UNIQUE,
                 contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
                 conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                 name TEXT NOT NULL DEFAULT '',
                 email TEXT NOT NULL DEFAULT '',
                 created_at TEXT NOT NULL))",
         }},
        {8,
         "channel sends: the outgoing queue of the provider channels, bulk sends",
         {
             // An outgoing message of a provider channel waits in status pending until the delivery
             // thread sends it: send_priority 0 (an agent or API send) before 1 (bulk), then in order;
             // next_attempt_at: when a passing failure may be retried (NULL: now).
             "ALTER TABLE messages ADD COLUMN send_priority INTEGER NOT NULL DEFAULT 0",
             "ALTER TABLE messages ADD COLUMN send_attempts INTEGER NOT NULL DEFAULT 0",
             "ALTER TABLE messages ADD COLUMN next_attempt_at TEXT",
             "ALTER TABLE messages ADD COLUMN last_error TEXT",
             "CREATE INDEX messages_send_queue ON messages(channel, send_priority, seq) "
             "WHERE direction = 'outgoing' AND status = 'pending'",
             R"(CREATE TABLE bulk_sends (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 channel TEXT NOT NULL,
                 segment_id TEXT,
                 template_name TEXT NOT NULL,
                 template_language TEXT NOT NULL,
                 components TEXT NOT NULL DEFAULT '[]',
                 body_text TEXT NOT NULL DEFAULT '',
                 total INTEGER NOT NULL DEFAULT 0,
                 created_by TEXT,
                 created_at TEXT NOT NULL))",
             // One row per recipient: the message sent to it, or why none could be (error).
             R"(CREATE TABLE bulk_recipients (
                 seq INTEGER PRIMARY KEY,
                 bulk_seq INTEGER NOT NULL REFERENCES bulk_sends(seq) ON DELETE CASCADE,
                 recipient TEXT NOT NULL,
                 contact_id TEXT,
                 message_id TEXT,
                 error TEXT))",
             "CREATE INDEX bulk_recipients_bulk ON bulk_recipients(bulk_seq, seq)",
             "CREATE INDEX bulk_recipients_message ON bulk_recipients(message_id)",
             "CREATE INDEX bulk_recipients_todo ON bulk_recipients(seq) WHERE message_id IS NULL AND error IS NULL",
             // Message templates the provider approved (WhatsApp): the template sender sends only
             // these. body: the text with {{1}}, {{2}}… placeholders; buttons: [{type, text}].
             R"(CREATE TABLE message_templates (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 name TEXT NOT NULL,
                 language TEXT NOT NULL,
                 category TEXT NOT NULL DEFAULT 'utility',
                 body TEXT NOT NULL,
                 buttons TEXT NOT NULL DEFAULT '[]',
                 status TEXT NOT NULL DEFAULT 'approved',
                 created_at TEXT NOT NULL,
                 updated_at TEXT NOT NULL,
                 UNIQUE (name, language)))",
         }},
        {9,
         "media: uploaded files served by token",
         {
             // The file is DATA/media/<id>; token_hash: SHA-256 (hex) of the URL token.
             R"(CREATE TABLE media (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 token_hash TEXT NOT NULL,
                 filename TEXT NOT NULL,
                 mime_type TEXT NOT NULL,
                 kind TEXT NOT NULL,
                 size INTEGER NOT NULL,
                 sha256 TEXT NOT NULL,
                 uploaded_by TEXT,
                 conversation_id TEXT REFERENCES conversations(id) ON DELETE SET NULL,
                 message_id TEXT REFERENCES messages(id) ON DELETE SET NULL,
                 created_at TEXT NOT NULL,
                 expires_at TEXT NOT NULL))",
             "CREATE INDEX media_expires ON media(expires_at)",
             "CREATE INDEX media_message ON media(message_id)",
         }},
        {10,
         "refresh token families: a reused refresh token revokes every token descended from its login",
         {
             // family_id: the id of the first token of the login (NULL on rows from before: a family of one).
             "ALTER TABLE refresh_tokens ADD COLUMN family_id TEXT",
             "CREATE INDEX refresh_tokens_family ON refresh_tokens(family_id)",
         }},
        {11,
         "early provider statuses: a status that arrives before its send's provider id is recorded is kept "
         "and applied when it is",
         {
             R"(CREATE TABLE early_statuses (
                 seq INTEGER PRIMARY KEY,
                 channel TEXT NOT NULL,
                 provider_id TEXT NOT NULL,
                 status TEXT NOT NULL,
                 failed_reason TEXT,
                 received_at TEXT NOT NULL))",
             "CREATE INDEX early_statuses_message ON early_statuses(channel, provider_id)",
             "CREATE INDEX early_statuses_received ON early_statuses(received_at)",
         }},
        {12,
         "deactivated users: a user who leaves keeps their records but can no longer sign in, and their "
         "tokens and API keys stop working",
         {
             "ALTER TABLE users ADD COLUMN deactivated_at TEXT",
         }},
        {13,
         "contact search on PostgreSQL: the words of each contact, read by prefix (SQLite has its FTS5 index)",
         {
             // word: a word of the contact's search document (folded: lower case, without accents,
             // Turkish İ/ı read as i). Read as prefix ranges in byte order (COLLATE "C"), so that the
             // index serves whatever the database's own collation is.
             postgresOnly(R"(CREATE TABLE contact_words (
                 contact_seq BIGINT NOT NULL REFERENCES contacts(seq) ON DELETE CASCADE,
                 word TEXT COLLATE "C" NOT NULL,
                 PRIMARY KEY (contact_seq, word)))"),
             postgresOnly("CREATE INDEX contact_words_prefix ON contact_words ((word COLLATE \"C\"), contact_seq)"),
         }},
        {14,
         "leases: work that one copy of Liaison takes is taken over by another when the first stops",
         {
             // A webhook delivery in flight belongs to its copy until lease_until; after it, another
             // copy may send it again (the first died during the attempt).
             "ALTER TABLE webhook_deliveries ADD COLUMN lease_until TEXT",
             // An outgoing message being sent: taken at claimed_at until claimed_until (NULL: free to
             // take). The claims of the last second, counted per channel by every copy, hold the
             // channel's rate (channels/*/sendPerSecond) across copies.
             "ALTER TABLE messages ADD COLUMN claimed_at TEXT",
             "ALTER TABLE messages ADD COLUMN claimed_until TEXT",
             "CREATE INDEX messages_send_claims ON messages(channel, claimed_at) WHERE claimed_at IS NOT NULL",
         }},
        {15,
         "media in the database on PostgreSQL: every copy of Liaison serves and sends every upload (SQLite "
         "keeps its files in DATA/media)",
         {
             // The bytes of an upload, written in the transaction of its media row and deleted with
             // it. PostgreSQL keeps large values out of line (TOAST), so the media rows stay small.
             postgresOnly(R"(CREATE TABLE media_contents (
                 media_seq BIGINT PRIMARY KEY REFERENCES media(seq) ON DELETE CASCADE,
                 content BYTEA NOT NULL))"),
         }},
        {16,
         "deliveries in flight: the dispatcher finds those whose copy stopped, and a restart those it "
         "left, without reading the whole delivery log",
         {
             "CREATE INDEX webhook_deliveries_in_flight ON webhook_deliveries(seq) WHERE state = 'in_flight'",
         }},
        {17,
         "segment rules compare text as search does: without case, accents or the dot of the Turkish i",
         {
             // liaison_fold(text): TextFold::fold in SQL. SQLite has it from Database (a C function
             // on each connection). On PostgreSQL, ASCII text is lowered as it is; other text is
             // decomposed (NFKD), the dotless i made i, lowered (ASCII first, so that a Turkish
             // locale does not make I dotless; then by the database's locale, as the columns' "C"
             // would lower ASCII only), and the combining accents dropped. Not used in any index, so
             // the SQLite file stays readable by tools without it.
             postgresOnly(R"(CREATE OR REPLACE FUNCTION liaison_fold(t TEXT) RETURNS TEXT
                 LANGUAGE sql IMMUTABLE PARALLEL SAFE
                 AS $$ SELECT CASE WHEN octet_length(t) = length(t) THEN lower(t)
                       ELSE regexp_replace(lower(lower(replace(normalize(t, NFKD), 'ı', 'i') COLLATE "C")
                                                 COLLATE "default"), '[\u0300-\u036f]', '', 'g') END $$)"),
         }},
        {18,
         "web visitors without a contact: an anonymous widget visitor's conversation waits without a contact "
         "until the visitor says who they are",
         {
             // conversations.contact_id and widget_visitors.contact_id may be NULL (an anonymous
             // visitor); visitor_name: how such a conversation is shown ("Website visitor 3F9K2A"),
             // NULL once it has a contact. The messages of such a conversation have contact_id ''
             // until it gets one. SQLite cannot drop a NOT NULL: both tables are rebuilt (foreign
             // keys off for this migration, so that dropping the old tables cascades nothing).
             sqliteOnly(R"(CREATE TABLE conversations_new (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 contact_id TEXT REFERENCES contacts(id) ON DELETE CASCADE,
                 channel TEXT NOT NULL,
                 channel_id TEXT NOT NULL DEFAULT '',
                 external_id TEXT,
                 status TEXT NOT NULL DEFAULT 'open',
                 assigned_to TEXT REFERENCES users(id) ON DELETE SET NULL,
                 tags TEXT NOT NULL DEFAULT '[]',
                 source TEXT NOT NULL DEFAULT '',
                 first_incoming_at TEXT,
                 first_response_seconds INTEGER,
                 total_messages INTEGER NOT NULL DEFAULT 0,
                 unread_count INTEGER NOT NULL DEFAULT 0,
                 last_message_text TEXT,
                 last_message_direction TEXT,
                 last_message_at TEXT,
                 last_activity_at TEXT NOT NULL,
                 closed_at TEXT,
                 created_at TEXT NOT NULL,
                 updated_at TEXT NOT NULL,
                 visitor_name TEXT))"),
             sqliteOnly("INSERT INTO conversations_new SELECT *, NULL FROM conversations"),
             sqliteOnly("DROP TABLE conversations"),
             sqliteOnly("ALTER TABLE conversations_new RENAME TO conversations"),
             sqliteOnly("CREATE INDEX conversations_activity ON conversations(last_activity_at, seq)"),
             sqliteOnly("CREATE INDEX conversations_status ON conversations(status, last_activity_at)"),
             sqliteOnly("CREATE INDEX conversations_contact ON conversations(contact_id, channel, external_id)"),
             sqliteOnly("CREATE INDEX conversations_assigned ON conversations(assigned_to)"),
             sqliteOnly(R"(CREATE TABLE widget_visitors_new (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 token_hash TEXT NOT NULL UNIQUE,
                 contact_id TEXT REFERENCES contacts(id) ON DELETE CASCADE,
                 conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                 name TEXT NOT NULL DEFAULT '',
                 email TEXT NOT NULL DEFAULT '',
                 created_at TEXT NOT NULL))"),
             sqliteOnly("INSERT INTO widget_visitors_new SELECT * FROM widget_visitors"),
             sqliteOnly("DROP TABLE widget_visitors"),
             sqliteOnly("ALTER TABLE widget_visitors_new RENAME TO widget_visitors"),
             postgresOnly("ALTER TABLE conversations ALTER COLUMN contact_id DROP NOT NULL"),
             postgresOnly("ALTER TABLE conversations ADD COLUMN visitor_name TEXT"),
             postgresOnly("ALTER TABLE widget_visitors ALTER COLUMN contact_id DROP NOT NULL"),
         },
         true},
        {19,
         "contacts sorted by name or company as search compares them: without case or accents, blanks last",
         {
             // The keys ContactRepository writes with each contact (sortKey: TextFold::fold of the
             // trimmed text, U+10FFFF for a blank one); liaison_fold is the same folding in SQL.
             "ALTER TABLE contacts ADD COLUMN name_sort TEXT NOT NULL DEFAULT ''",
             "ALTER TABLE contacts ADD COLUMN company_sort TEXT NOT NULL DEFAULT ''",
             sqliteOnly(R"(UPDATE contacts SET
                 name_sort = coalesce(nullif(liaison_fold(trim(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))), ''), char(1114111)),
                 company_sort = coalesce(nullif(liaison_fold(trim(coalesce(company, ''))), ''), char(1114111)))"),
             postgresOnly(R"(UPDATE contacts SET
                 name_sort = coalesce(nullif(liaison_fold(trim(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))), ''), chr(1114111)),
                 company_sort = coalesce(nullif(liaison_fold(trim(coalesce(company, ''))), ''), chr(1114111)))"),
             "CREATE INDEX contacts_name_sort ON contacts(name_sort, seq)",
             "CREATE INDEX contacts_company_sort ON contacts(company_sort, seq)",
         }},
        {20,
         "the keys that sign access tokens, shared by the copies of team mode",
         {
             // Team mode (PostgreSQL) only: every copy signs and checks access tokens with these, so
             // that a token from one copy is good at all. id: the token header's kid; secret: the
             // HMAC-SHA256 key, base64; not_before: when copies start signing with it (a rotated-in
             // key waits until every copy has read it); verify_until: until when tokens signed with
             // it are still accepted (NULL: no end; set when a newer key replaces it). SQLite keeps
             // its key in the secret store of the data directory, as before.
             R"(CREATE TABLE signing_keys (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 secret TEXT NOT NULL,
                 created_at TEXT NOT NULL,
                 not_before TEXT NOT NULL,
                 verify_until TEXT))",
         }},
        {21,
         "campaigns: the campaign, its frozen audience, drip steps, tracking, the unsubscribe list",
         {
             // status: DRAFT, SCHEDULED, SENDING, PAUSED, SENT, FAILED, CANCELLED (docs/api.md,
             // "Campaigns"). steps: the drip steps (JSON array); trigger: the TRIGGERED campaign's event
             // and rule (JSON); skipped: counts of contacts left out of the audience, by reason (JSON).
             R"(CREATE TABLE campaigns (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 name TEXT NOT NULL,
                 type TEXT NOT NULL,
                 channel TEXT NOT NULL,
                 status TEXT NOT NULL,
                 subject TEXT NOT NULL DEFAULT '',
                 html_content TEXT NOT NULL DEFAULT '',
                 template_name TEXT,
                 template_language TEXT,
                 broadcast_list_id TEXT,
                 scheduled_at TEXT,
                 steps TEXT NOT NULL DEFAULT '[]',
                 trigger_rule TEXT NOT NULL DEFAULT '{}',
                 status_reason TEXT,
                 skipped TEXT NOT NULL DEFAULT '{}',
                 started_at TEXT,
                 completed_at TEXT,
                 created_by TEXT,
                 created_at TEXT NOT NULL,
                 updated_at TEXT NOT NULL))",
             "CREATE INDEX campaigns_status ON campaigns(status, scheduled_at)",
             // One row per contact of the frozen audience (test sends have test = 1 and count in no
             // statistic). status: pending, sending (claimed until claimed_until), sent, delivered,
             // bounced, failed, skipped (skip_reason: no_address, unsubscribed, bounced, duplicate).
             // A row is claimed before its send and marked after it (docs/architecture.md,
             // "Campaigns"). opened_at/clicked_at: the first human open and click; proxy_opens: opens
             // by a mail provider's image proxy or a machine pre-fetch, kept apart.
             R"(CREATE TABLE campaign_recipients (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 campaign_seq INTEGER NOT NULL REFERENCES campaigns(seq) ON DELETE CASCADE,
                 contact_id TEXT,
                 name TEXT NOT NULL DEFAULT '',
                 address TEXT NOT NULL,
                 address_norm TEXT NOT NULL,
                 test INTEGER NOT NULL DEFAULT 0,
                 status TEXT NOT NULL,
                 skip_reason TEXT,
                 attempts INTEGER NOT NULL DEFAULT 0,
                 next_attempt_at TEXT,
                 claimed_until TEXT,
                 sent_at TEXT,
                 delivered_at TEXT,
                 opened_at TEXT,
                 clicked_at TEXT,
                 bounced_at TEXT,
                 bounce_type TEXT,
                 failed_at TEXT,
                 unsubscribed_at TEXT,
                 opens INTEGER NOT NULL DEFAULT 0,
                 clicks INTEGER NOT NULL DEFAULT 0,
                 proxy_opens INTEGER NOT NULL DEFAULT 0,
                 error TEXT,
                 provider_id TEXT,
                 created_at TEXT NOT NULL))",
             "CREATE INDEX campaign_recipients_queue ON campaign_recipients(campaign_seq, status, seq)",
             "CREATE INDEX campaign_recipients_sent ON campaign_recipients(sent_at)",
             "CREATE INDEX campaign_recipients_provider ON campaign_recipients(provider_id)",
             // Opens, clicks, bounces and unsubscribes as they came (kind: open, proxy_open, click,
             // bounce, unsubscribe, delivered).
             R"(CREATE TABLE campaign_events (
                 seq INTEGER PRIMARY KEY,
                 campaign_seq INTEGER NOT NULL REFERENCES campaigns(seq) ON DELETE CASCADE,
                 recipient_seq INTEGER NOT NULL REFERENCES campaign_recipients(seq) ON DELETE CASCADE,
                 kind TEXT NOT NULL,
                 detail TEXT,
                 created_at TEXT NOT NULL))",
             "CREATE INDEX campaign_events_recipient ON campaign_events(recipient_seq, kind)",
             // Addresses no campaign sends to on a channel: unsubscribed, hard-bounced, or added by hand.
             R"(CREATE TABLE campaign_suppressions (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 channel TEXT NOT NULL,
                 address TEXT NOT NULL,
                 address_norm TEXT NOT NULL,
                 reason TEXT NOT NULL,
                 contact_id TEXT,
                 campaign_id TEXT,
                 created_by TEXT,
                 created_at TEXT NOT NULL,
                 UNIQUE (channel, address_norm)))",
             // The key that signs tracking and unsubscribe links (HMAC-SHA256, base64), made once and
             // shared by the copies of team mode so that a link from one copy is good at all.
             R"(CREATE TABLE campaign_keys (
                 name TEXT PRIMARY KEY,
                 secret TEXT NOT NULL,
                 created_at TEXT NOT NULL))",
         }},
        {22,
         "campaign test sends found without reading the audiences",
         {
             "CREATE INDEX campaign_recipients_tests ON campaign_recipients(status, seq) WHERE test = 1",
         }},
        {23,
         "drip and triggered campaigns: each contact's walk through the steps, the triggers' place in the outbox",
         {
             // One row per contact that entered a DRIP or TRIGGERED campaign (once: a contact walks a
             // campaign one time). status: active, completed (every step released), exited
             // (exit_reason: unsubscribed, bounced, replied, deal_won, contact_deleted, no_address,
             // cancelled). next_step is due at next_at; source: 'audience' or the trigger's event.
             R"(CREATE TABLE campaign_enrolments (
                 seq INTEGER PRIMARY KEY,
                 campaign_seq INTEGER NOT NULL REFERENCES campaigns(seq) ON DELETE CASCADE,
                 contact_id TEXT NOT NULL,
                 status TEXT NOT NULL,
                 exit_reason TEXT,
                 next_step INTEGER NOT NULL DEFAULT 0,
                 next_at TEXT,
                 entered_at TEXT NOT NULL,
                 source TEXT NOT NULL,
                 updated_at TEXT NOT NULL,
                 UNIQUE (campaign_seq, contact_id)))",
             "CREATE INDEX campaign_enrolments_due ON campaign_enrolments(campaign_seq, status, next_at)",
             // A step's send is a recipient row of its campaign, made when the step is due: one per
             // (enrolment, step), so that no step is sent twice whatever restarts or races.
             "ALTER TABLE campaign_recipients ADD COLUMN enrolment_seq INTEGER REFERENCES campaign_enrolments(seq) ON "
             "DELETE CASCADE",
             "ALTER TABLE campaign_recipients ADD COLUMN step INTEGER",
             "CREATE UNIQUE INDEX campaign_recipients_step ON campaign_recipients(enrolment_seq, step)",
             // How far the triggers have read the outbox.
             R"(CREATE TABLE campaign_cursor (
                 name TEXT PRIMARY KEY,
                 outbox_seq INTEGER NOT NULL))",
         }},
        {24,
         "WhatsApp campaign templates filled per recipient: the body parameters, each a text with merge fields",
         {
             "ALTER TABLE campaigns ADD COLUMN template_params TEXT NOT NULL DEFAULT '[]'",
         }},
        {25,
         "the assistant: knowledge entries, the answers it gave and their feedback, dismissed suggestions, AI in "
         "the inbox",
         {
             // The knowledge base. revision: the value of knowledge_revision when the entry was last
             // written; each copy's in-memory index reads the entries (and removals) above the
             // revision it holds, so that every copy answers from the same entries.
             R"(CREATE TABLE knowledge_entries (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 type TEXT NOT NULL,
                 language TEXT NOT NULL,
                 question TEXT NOT NULL,
                 answer TEXT NOT NULL,
                 tags TEXT NOT NULL DEFAULT '[]',
                 revision INTEGER NOT NULL,
                 created_by TEXT,
                 created_at TEXT NOT NULL,
                 updated_at TEXT NOT NULL))",
             "CREATE INDEX knowledge_entries_revision ON knowledge_entries(revision)",
             "CREATE INDEX knowledge_entries_language ON knowledge_entries(language, seq)",
             R"(CREATE TABLE knowledge_removed (
                 id TEXT PRIMARY KEY,
                 revision INTEGER NOT NULL))",
             "CREATE INDEX knowledge_removed_revision ON knowledge_removed(revision)",
             // One row: every write of the knowledge base raises it in its transaction (which also
             // makes the writers take turns, so revisions commit in order).
             R"(CREATE TABLE knowledge_revision (
                 name TEXT PRIMARY KEY,
                 revision INTEGER NOT NULL))",
             "INSERT INTO knowledge_revision (name, revision) VALUES ('entries', 0)",
             // Each question the assistant was asked (POST /ai/chat, the inbox's auto-reply and
             // suggestions; never /ai/test-knowledge) and what it decided: decision answered or
             // handoff (reason), the best entry and the sources, the AI message it became in the
             // inbox. Unanswered questions feed the suggestions until accepted or dismissed
             // (suggestion: NULL, accepted, dismissed).
             R"(CREATE TABLE ai_answers (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 question TEXT NOT NULL,
                 language TEXT NOT NULL,
                 decision TEXT NOT NULL,
                 reason TEXT,
                 confidence REAL NOT NULL,
                 entry_id TEXT,
                 sources TEXT NOT NULL DEFAULT '[]',
                 answer TEXT,
                 mode TEXT NOT NULL,
                 channel TEXT,
                 conversation_id TEXT,
                 message_id TEXT,
                 suggestion TEXT,
                 created_at TEXT NOT NULL))",
             "CREATE INDEX ai_answers_created ON ai_answers(created_at)",
             "CREATE INDEX ai_answers_message ON ai_answers(message_id)",
             "CREATE INDEX ai_answers_unanswered ON ai_answers(decision, suggestion, seq)",
             // Feedback on an AI answer: one per answer and user (a second one replaces it).
             R"(CREATE TABLE ai_feedback (
                 seq INTEGER PRIMARY KEY,
                 answer_id TEXT NOT NULL REFERENCES ai_answers(id) ON DELETE CASCADE,
                 message_id TEXT NOT NULL,
                 user_id TEXT NOT NULL,
                 feedback_type TEXT NOT NULL,
                 rating INTEGER NOT NULL,
                 positive INTEGER NOT NULL,
                 reason TEXT,
                 comment TEXT,
                 created_at TEXT NOT NULL,
                 updated_at TEXT NOT NULL,
                 UNIQUE (answer_id, user_id)))",
             // A dismissed suggestion: the terms of its representative question, so that the same
             // question asked again does not bring it back.
             R"(CREATE TABLE ai_dismissed (
                 seq INTEGER PRIMARY KEY,
                 terms TEXT NOT NULL,
                 question TEXT NOT NULL,
                 created_by TEXT,
                 created_at TEXT NOT NULL))",
             // The inbox: a conversation the assistant handed to a person (the reason; no
             // auto-reply until a person closes it or hands it back) and its draft reply.
             "ALTER TABLE conversations ADD COLUMN ai_handoff TEXT",
             "ALTER TABLE conversations ADD COLUMN ai_draft TEXT",
             "ALTER TABLE conversations ADD COLUMN ai_draft_answer_id TEXT",
             // The seq of the incoming message the auto-reply last took (a conditional update: one
             // copy of Liaison answers each message, once).
             "ALTER TABLE conversations ADD COLUMN ai_replied_seq INTEGER",
         }},
        {26,
         "the assistant's hand-offs: whom it gave a conversation to last, for the agents' round robin",
         {
             // user_seq: users.seq of the agent the assistant assigned a conversation to last (0:
             // none yet); the next hand-off goes to the next active agent after it. One row, locked
             // by the hand-off's transaction, so that copies on one database take turns.
             R"(CREATE TABLE ai_handoff_cursor (
                 name TEXT PRIMARY KEY,
                 user_seq INTEGER NOT NULL))",
             "INSERT INTO ai_handoff_cursor (name, user_seq) VALUES ('agents', 0)",
         }},
        {27,
         "merged contacts: what each merge moved and removed, so that it can be undone and a removed id "
         "answered with the contact it went into",
         {
             // One row per merge (ContactMerge): kept_id the contact that stayed; record the JSON of
             // what the merge changed (the kept contact before and after, each removed contact as it
             // was with its notes, segments and the rows moved from it); undone_at set once by an undo.
             R"(CREATE TABLE contact_merges (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 kept_id TEXT NOT NULL,
                 record TEXT NOT NULL,
                 merged_by TEXT,
                 created_at TEXT NOT NULL,
                 undone_at TEXT))",
             "CREATE INDEX contact_merges_kept ON contact_merges(kept_id)",
             // Each contact a merge removed: a later request naming it is told where it went.
             R"(CREATE TABLE contact_merged_ids (
                 contact_id TEXT NOT NULL,
                 merge_seq INTEGER NOT NULL REFERENCES contact_merges(seq) ON DELETE CASCADE,
                 PRIMARY KEY (contact_id, merge_seq)))",
         }},
        {28,
         "the Home area's figures read from indexes: deals closed per stage by time, conversations waiting for an "
         "answer, messages per day with their channel",
         {
             // Won and lost in the last 30 and 90 days: one range per closing stage, the amounts in
             // the index (bench_home: 28 ms reading the rows of 20,000 deals, docs/performance.md).
             "CREATE INDEX deals_closed ON deals(pipeline_id, stage, closed_at, currency, value, closed_value)",
             // Conversations waiting for an answer, and the longest wait: only those rows (a scan of
             // every conversation otherwise).
             "CREATE INDEX conversations_waiting ON conversations(last_message_at) "
             "WHERE last_message_direction = 'incoming' AND status != 'closed'",
             // Messages per channel per day without reading the messages: the time index with the
             // channel replaces the time index alone (every query of that one is a query of this one).
             "CREATE INDEX messages_created_channel ON messages(created_at, channel)",
             "DROP INDEX messages_created",
         }},
        {29,
         "record imports: a job per imported file, so that its status reads the same from every copy",
         {
             // status: queued, running, completed, cancelled, failed. report: the per-row outcomes
             // as a JSON array, written when the job ends. cancel_requested: set by a cancel, read
             // by the copy running the job between two batches.
             R"(CREATE TABLE import_jobs (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 kind TEXT NOT NULL,
                 status TEXT NOT NULL,
                 file_name TEXT,
                 duplicates TEXT NOT NULL,
                 mapping TEXT NOT NULL DEFAULT '{}',
                 rows_total INTEGER NOT NULL DEFAULT 0,
                 processed INTEGER NOT NULL DEFAULT 0,
                 created INTEGER NOT NULL DEFAULT 0,
                 updated INTEGER NOT NULL DEFAULT 0,
                 skipped INTEGER NOT NULL DEFAULT 0,
                 failed INTEGER NOT NULL DEFAULT 0,
                 cancel_requested INTEGER NOT NULL DEFAULT 0,
                 error TEXT,
                 report TEXT,
                 created_by TEXT,
                 created_at TEXT NOT NULL,
                 updated_at TEXT NOT NULL,
                 finished_at TEXT))",
         }},
    };
    return list;
}
