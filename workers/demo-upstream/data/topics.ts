import type { Team } from "../schemas";

/**
 * What customers write in about. `{placeholders}` are filled by `fill` in tickets-gen.ts:
 * {feature} {integration} {error} {invoice} {month} {browser} {device} {n} {n2} {plan} {first}.
 */
export interface Topic {
  tags: readonly string[];
  team: Team;
  weight: number;
  /** [subject, first sentence of the body] */
  cases: ReadonlyArray<readonly [string, string]>;
}

export const TOPICS: readonly Topic[] = [
  {
    tags: ["billing"],
    team: "billing",
    weight: 16,
    cases: [
      ["Charged twice for the {month} invoice", "Our card was charged twice for the {month} invoice."],
      [
        "Refund request for invoice {invoice}",
        "We cancelled before the renewal date, so please refund invoice {invoice}.",
      ],
      [
        "How do I update the card on file?",
        "The card we had on file expired and I can't find where to replace it.",
      ],
      [
        "VAT number missing from invoice {invoice}",
        "Finance needs our VAT number on invoice {invoice} before they can pay it.",
      ],
      [
        "Downgrade did not reduce our bill",
        "We downgraded last week but the {month} invoice still shows the old price.",
      ],
      [
        "Question about seat-based pricing",
        "We are billed for {n} seats but only {n2} people use the account.",
      ],
    ],
  },
  {
    tags: ["login", "account"],
    team: "accounts",
    weight: 14,
    cases: [
      [
        "Cannot log in after password reset",
        "I reset my password this morning and now the login page says my credentials are invalid.",
      ],
      [
        "SSO login fails with error {error}",
        "Signing in through our identity provider ends on an error page with code {error}.",
      ],
      [
        "Two-factor codes are rejected",
        "The six-digit codes from my authenticator app are rejected every time.",
      ],
      [
        "Locked out of my account",
        "After too many attempts my account was locked and the unlock link has expired.",
      ],
      [
        "Password reset email never arrives",
        "I have requested the reset email {n} times and nothing arrives, not even in spam.",
      ],
    ],
  },
  {
    tags: ["bug"],
    team: "technical",
    weight: 18,
    cases: [
      [
        "{feature} page shows a blank screen",
        "Opening {feature} in {browser} shows a blank page with no error message.",
      ],
      [
        "Error {error} when saving {feature}",
        "Every time we save changes to {feature} we get error {error} and the changes are lost.",
      ],
      [
        "CSV export is missing columns",
        "The CSV export of {feature} is missing the owner and due-date columns since last week.",
      ],
      [
        "Dates show in the wrong time zone",
        "All timestamps in {feature} are shown in UTC even though our workspace uses local time.",
      ],
      [
        "Search returns no results for existing records",
        "Searching {feature} for records we can see in the list returns nothing.",
      ],
      [
        "Attachments fail to upload in {browser}",
        "Uploading any attachment larger than {n} MB in {browser} fails halfway through.",
      ],
    ],
  },
  {
    tags: ["integration"],
    team: "technical",
    weight: 10,
    cases: [
      [
        "{integration} sync stopped working",
        "Our {integration} sync has not run since {month} and shows no error.",
      ],
      [
        "Webhook deliveries to {integration} are failing",
        "Webhook deliveries to {integration} fail with error {error}.",
      ],
      [
        "Duplicate records after connecting {integration}",
        "Connecting {integration} created {n}00 duplicate contacts in our workspace.",
      ],
      [
        "How do I reconnect {integration}?",
        "The {integration} connection says it needs re-authorising but the button does nothing.",
      ],
    ],
  },
  {
    tags: ["performance"],
    team: "technical",
    weight: 8,
    cases: [
      [
        "Dashboard is very slow to load",
        "The dashboard takes more than {n} seconds to load for everyone on our team.",
      ],
      ["API requests are timing out", "About one in ten API requests times out after 30 seconds."],
      [
        "Reports take minutes to generate",
        "Generating the monthly report in {feature} now takes several minutes.",
      ],
      [
        "{feature} freezes with large accounts",
        "{feature} freezes the browser tab once we have more than a few thousand records.",
      ],
    ],
  },
  {
    tags: ["feature-request"],
    team: "onboarding",
    weight: 9,
    cases: [
      ["Feature request: dark mode", "Several of us work late and would love a dark theme."],
      [
        "Feature request: bulk edit in {feature}",
        "It would help our team a lot to edit many records in {feature} at once.",
      ],
      [
        "Feature request: custom fields on {feature}",
        "We would like to add our own fields to {feature} for internal reporting.",
      ],
      ["Can we get an audit log?", "Our compliance team asks for an audit log of who changed what and when."],
      [
        "Feature request: native {integration} integration",
        "A native {integration} integration would save us an export every week.",
      ],
    ],
  },
  {
    tags: ["how-to"],
    team: "onboarding",
    weight: 12,
    cases: [
      [
        "How do I invite teammates?",
        "We just signed up and I can't find where to invite the rest of my team.",
      ],
      [
        "How do I import contacts from a CSV?",
        "I have a CSV with about {n}00 contacts and would like to import it.",
      ],
      [
        "Setting up roles and permissions",
        "We need some users to see {feature} without being able to edit it.",
      ],
      ["Where do I find my API key?", "Our developer needs an API key to connect our internal tools."],
      ["How do I change the workspace owner?", "The person who created our workspace has left the company."],
    ],
  },
  {
    tags: ["data", "privacy"],
    team: "accounts",
    weight: 5,
    cases: [
      [
        "GDPR data deletion request",
        "Under GDPR we ask you to delete all personal data of a former employee.",
      ],
      [
        "Request for a full data export",
        "We need a complete export of our workspace before our contract renews.",
      ],
      ["Where is our data stored?", "Our security review asks in which region our data is stored."],
      [
        "Signed DPA needed",
        "Legal needs a signed data processing agreement before we roll out to more teams.",
      ],
    ],
  },
  {
    tags: ["api"],
    team: "technical",
    weight: 5,
    cases: [
      ["API rate limit too low", "We hit the API rate limit during our nightly sync of {n}000 records."],
      [
        "401 errors with a valid API key",
        "Requests with our API key started returning 401 yesterday without any change on our side.",
      ],
      [
        "Pagination in the API skips records",
        "Paging through the tickets endpoint returns fewer records than the total says.",
      ],
      [
        "Webhook signature does not verify",
        "The webhook signature header never matches the HMAC we compute.",
      ],
    ],
  },
  {
    tags: ["mobile"],
    team: "technical",
    weight: 3,
    cases: [
      [
        "{device} app crashes on launch",
        "Since the last update the {device} app closes right after the splash screen.",
      ],
      ["Push notifications not arriving", "Push notifications stopped arriving on my {device} phone."],
      ["Mobile app logs me out every day", "The mobile app asks me to sign in again every morning."],
    ],
  },
];

/** Second sentences for ticket bodies (about half the tickets get one). */
export const FOLLOW_UPS = [
  "This is blocking our whole team.",
  "It started after yesterday's update.",
  "Screenshots are attached.",
  "Could you look into this as soon as possible?",
  "We have a customer demo on Friday.",
  "A colleague in another office sees the same thing.",
  "Clearing the cache did not help.",
  "Please let me know if you need more details.",
] as const;

export const FEATURES = ["Reports", "Contacts", "Deals", "Invoices", "Dashboards", "Tasks", "Pipelines"];
export const INTEGRATIONS = ["Slack", "Salesforce", "HubSpot", "Zapier", "Google Sheets", "Stripe", "Jira"];
export const BROWSERS = ["Chrome", "Firefox", "Safari", "Edge"];
export const DEVICES = ["iOS", "Android"];
export const MONTHS = ["January", "February", "March", "April", "May", "June", "July"];

/** Extra tags that a few tickets also carry. */
export const EXTRA_TAGS = ["regression", "churn-risk", "needs-info", "docs"] as const;

export const AGENT_REPLIES = [
  "Thanks for reaching out, {first}. I'm looking into this now.",
  "Could you send a screenshot and the approximate time this happened?",
  "I've reproduced the issue and passed it to our engineers.",
  "This should be fixed now; please let us know if you still see it.",
  "I've applied the change to your account. Anything else I can help with?",
  "Here is the help-center article that walks through the steps.",
] as const;

export const CUSTOMER_REPLIES = [
  "Thanks, that worked.",
  "I'm still seeing the problem this morning.",
  "Here are the details you asked for.",
  "Any update on this?",
  "Great, you can close this ticket.",
] as const;

export const INTERNAL_NOTES = [
  "Escalated to engineering as ENG-{n}.",
  "Customer is on the {plan} plan; prioritising.",
  "Known issue, linked to the incident from {month}.",
  "Checked logs: the error started after the last deploy.",
] as const;
