/** The demo's users: whoever signs in picks one, and the tools answer as that user. */
export interface DemoUser {
  name: string;
  email: string;
  notes: { title: string; text: string }[];
}

export const DEMO_USERS: Record<string, DemoUser> = {
  alice: {
    name: "Alice Martin",
    email: "alice@example.com",
    notes: [
      { title: "Quarterly review", text: "Move the review to Thursday; Bob presents the numbers." },
      { title: "Groceries", text: "Oat milk, lemons, basil." },
    ],
  },
  bob: {
    name: "Bob Chen",
    email: "bob@example.com",
    notes: [{ title: "On call", text: "Pager rotation starts Monday; hand over to Alice on Friday." }],
  },
};

/** The user a sign-in form names, if it is one of the demo's. */
export function demoUser(id: unknown): string | undefined {
  return typeof id === "string" && Object.hasOwn(DEMO_USERS, id) ? id : undefined;
}
