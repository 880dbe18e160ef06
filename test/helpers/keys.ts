/** The DEV_API_KEY the unit tests (vitest.config.ts) and end-to-end tests run the gateway with. */
export const TEST_API_KEY = "test-key-0123456789abcdef";
