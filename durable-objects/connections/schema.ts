/** The tables of one team's connection store (docs/storage-schema.md, `CONNECTIONS`). */
export const SCHEMA = [
  "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
  `CREATE TABLE IF NOT EXISTS connections (
    user TEXT NOT NULL, server TEXT NOT NULL, status TEXT NOT NULL, tokens TEXT,
    issuer TEXT NOT NULL, resource TEXT NOT NULL, scopes TEXT NOT NULL, obtained_by TEXT NOT NULL,
    expires_at INTEGER, refreshing_until INTEGER, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
    PRIMARY KEY (user, server))`,
  `CREATE TABLE IF NOT EXISTS registrations (
    server TEXT PRIMARY KEY, discovery TEXT, discovered_at INTEGER, client TEXT, registered_at INTEGER)`,
  `CREATE TABLE IF NOT EXISTS flows (
    id TEXT PRIMARY KEY, user TEXT NOT NULL, server TEXT NOT NULL, state_hash TEXT, verifier TEXT,
    discovery TEXT, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL)`,
  "CREATE INDEX IF NOT EXISTS flows_user ON flows (user, created_at)",
  "CREATE INDEX IF NOT EXISTS flows_expiry ON flows (expires_at)",
  `CREATE TABLE IF NOT EXISTS user_secrets (
    user TEXT NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL, PRIMARY KEY (user, name))`,
];

export type ConnectionRow = {
  user: string;
  server: string;
  status: string;
  tokens: string | null;
  issuer: string;
  resource: string;
  /** space-separated */
  scopes: string;
  obtained_by: string;
  expires_at: number | null;
  refreshing_until: number | null;
  created_at: number;
  updated_at: number;
};

export type RegistrationRow = {
  server: string;
  discovery: string | null;
  discovered_at: number | null;
  client: string | null;
  registered_at: number | null;
};

export type FlowRow = {
  id: string;
  user: string;
  server: string;
  state_hash: string | null;
  verifier: string | null;
  discovery: string | null;
  created_at: number;
  expires_at: number;
};

export type UserSecretRow = {
  user: string;
  name: string;
  value: string;
  created_at: number;
  updated_at: number;
};
