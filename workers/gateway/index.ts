import { createApp } from "./app";

export { SessionObject } from "../../durable-objects/session/session-object";

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
