/** The DEV_API_KEY the unit tests (vitest.config.ts) and end-to-end tests run the gateway with. */
export const TEST_API_KEY = "test-key-0123456789abcdef";

/** The ADMIN_TOKEN of the unit tests' gateway. */
export const TEST_ADMIN_TOKEN = "admin-token-0123456789abcdef";
