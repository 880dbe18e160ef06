import { createDemoApp } from "./app";

const app = createDemoApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler;
