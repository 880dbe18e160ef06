import { type Agent, type Customer, type Plan, TEAMS, type Team } from "../schemas";
import { COMPANIES, COUNTRIES, FIRST_NAMES, LAST_NAMES, PERSONAL_DOMAINS } from "./people";
import { type Random, Weighted } from "./random";
import { DAY_MS, isoTime } from "./time";

const CUSTOMERS_SINCE = Date.UTC(2021, 0, 1);
const PLANS = Weighted.of<Plan>({ free: 55, pro: 35, enterprise: 10 });
const COUNTRY_MIX = new Weighted(COUNTRIES, (c) => c.weight);
const AGENT_DOMAIN = "brightdesk.io";

const slugs = new Map<string, string>();

/** "Chloé" → "chloe", "O'Brien" → "obrien": the part of a name that goes into an email address. */
export function emailSlug(name: string): string {
  let slug = slugs.get(name);
  if (slug === undefined) {
    slug = name
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z]/g, "");
    slugs.set(name, slug);
  }
  return slug;
}

function uniqueEmail(local: string, domain: string, used: Set<string>): string {
  // join makes flat strings (see isoTime)
  let email = [local, domain].join("@");
  for (let n = 2; used.has(email); n++) email = [local, n, "@", domain].join("");
  used.add(email);
  return email;
}

/** Customers, oldest first: "cus_00001" signed up first. */
export function generateCustomers(rng: Random, count: number, nowMs: number): Customer[] {
  const span = nowMs - 7 * DAY_MS - CUSTOMERS_SINCE;
  const signups = Array.from({ length: count }, () => CUSTOMERS_SINCE + Math.floor(rng.float() * span));
  signups.sort((a, b) => a - b);
  const used = new Set<string>();
  return signups.map((at, i) => {
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const company = rng.pick(COMPANIES);
    const plan = PLANS.pick(rng);
    const country = COUNTRY_MIX.pick(rng);
    const personal = plan === "free" && rng.chance(0.5);
    const local = rng.chance(0.7)
      ? `${emailSlug(first)}.${emailSlug(last)}`
      : `${emailSlug(first).slice(0, 1)}${emailSlug(last)}`;
    return {
      id: `cus_${String(i + 1).padStart(5, "0")}`,
      name: [first, last].join(" "),
      email: uniqueEmail(local, personal ? rng.pick(PERSONAL_DOMAINS) : company.domain, used),
      phone: ["+", rng.pick(country.prefixes), rng.digits(country.digits)].join(""),
      company: company.name,
      plan,
      country: country.code,
      createdAt: isoTime(at),
    };
  });
}

const TEAM_SIZES: Record<Team, number> = { technical: 10, billing: 5, accounts: 5, onboarding: 5 };

/** Support agents with distinct names; teams fill in TEAMS order until each has its share. */
export function generateAgents(rng: Random, count: number): Agent[] {
  const names = new Set<string>();
  const emails = new Set<string>();
  const teams = TEAMS.flatMap((team) => Array.from({ length: TEAM_SIZES[team] }, () => team));
  const agents: Agent[] = [];
  while (agents.length < count) {
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const name = `${first} ${last}`;
    if (names.has(name)) continue;
    names.add(name);
    agents.push({
      id: `agt_${String(agents.length + 1).padStart(3, "0")}`,
      name,
      email: uniqueEmail(`${emailSlug(first)}.${emailSlug(last)}`, AGENT_DOMAIN, emails),
      team: teams[agents.length % teams.length]!,
    });
  }
  return agents;
}
