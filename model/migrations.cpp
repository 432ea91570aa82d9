#include "migrations.h"

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
             "CREATE VIRTUAL TABLE contacts_fts USING fts5(doc, tokenize = \"unicode61 remove_diacritics 2\", "
             "prefix = '1 2 3')",
             R"(CREATE TABLE outbox (
                 seq INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 event TEXT NOT NULL,
                 payload TEXT NOT NULL,
                 created_at TEXT NOT NULL))",
         }},
    };
    return list;
}
