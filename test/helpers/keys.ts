/** The DEV_API_KEY the unit tests (vitest.config.ts) and end-to-end tests run the gateway with. */
export const TEST_API_KEY = "test-key-0123456789abcdef";

/** The ADMIN_TOKEN of the unit tests' gateway. */
export const TEST_ADMIN_TOKEN = "admin-token-0123456789abcdef";

/** The CONNECTIONS_KEY of the unit tests' and end-to-end tests' gateway (sealing: shared/seal.ts). */
export const TEST_CONNECTIONS_KEY = "connections-key-0123456789abcdef0123456789abcdef";

/** The unit tests' CONNECTIONS_KEY_PREVIOUS: what it sealed opens, and is re-sealed (rotation). */
export const TEST_CONNECTIONS_KEY_PREVIOUS = "connections-key-previous-0123456789abcdef01234567";
