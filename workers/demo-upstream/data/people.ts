/** Word lists for realistic people, companies and phone numbers. */

/** A whitespace-separated list (keeps long word lists compact under the formatter). */
function words(text: string): readonly string[] {
  return text.trim().split(/\s+/);
}

export const FIRST_NAMES = words(`
  Olivia Liam Emma Noah Ava Oliver Sophia Elijah Isabella James Mia William Amelia Benjamin Harper
  Lucas Evelyn Henry Abigail Alexander Emily Daniel Ella Matthew Scarlett Samuel Grace David Chloe
  Joseph Priya Arjun Ananya Rohan Mei Wei Yuki Haruto Sakura Kenji Sofia Mateo Valentina Santiago
  Camila Diego Lucia Javier Elena Pablo Fatima Omar Layla Yusuf Aisha Hassan Zara Ibrahim Nadia
  Karim Lena Felix Hannah Jonas Clara Maximilian Marie Leon Sophie Paul Chloé Louis Camille Hugo
  Léa Jules Inès Arthur Manon Gabriel Freya Oscar Astrid Erik Ingrid Lars Sanne Daan Femke Bram
  Chinedu Amara Kwame Zanele Tariq Leila Tomás Beatriz Rafael Mariana
`);

export const LAST_NAMES = words(`
  Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez
  Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris
  Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill
  Flores Patel Sharma Gupta Singh Kumar Chen Wang Li Zhang Liu Tanaka Suzuki Sato Takahashi Kim
  Park Choi Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Dubois Moreau Laurent
  Lefebvre Bernard Rossi Russo Ferrari Esposito Bianchi Jansen Bakker Visser Andersson Johansson
  Karlsson Nielsen Hansen O'Brien Murphy Kelly Byrne Walsh Okafor Mensah Diallo Haddad Khan Ali
  Silva Santos Oliveira Costa
`);

const COMPANY_STEMS = words(`
  Acme Northwind Globex Initech Umbrella Stark Wayne Hooli Vandelay Soylent Cyberdyne Tyrell Wonka
  Gringotts Oscorp Aperture BlueHarbor Silverline Redwood Brightpath Clearwater Ironclad
  Lighthouse Maple Nimbus Orbit Pinecrest Quantum Riverstone Summit Tidewater Evergreen Falcon
  Granite Horizon Juniper Keystone Lumen Meridian Nova Oakridge Polaris Sterling Vertex Willow
  Zenith Atlas Beacon Cobalt Driftwood Ember Foxglove Harbor Kestrel Larkspur Mosaic
`);

/** "Display:slug" pairs: "Acme Retail" gets the domain "acmeshop.<tld>". */
const COMPANY_KINDS = words(`
  Labs:labs Logistics:logistics Analytics:analytics Health:health Systems:systems Foods:foods
  Media:media Robotics:robotics Capital:capital Retail:shop Software:soft Energy:energy
`).map((pair) => pair.split(":") as [string, string]);

const TLDS = ["com", "io", "co", "net", "dev", "app"] as const;

export interface Company {
  name: string;
  domain: string;
}

/** Every stem × kind pairing, in a fixed order (56 × 12 = 672 companies). */
export const COMPANIES: readonly Company[] = COMPANY_STEMS.flatMap((stem, i) =>
  COMPANY_KINDS.map(([kind, slug], j) => ({
    name: `${stem} ${kind}`,
    domain: `${stem.toLowerCase()}${slug}.${TLDS[(i + j) % TLDS.length]}`,
  })),
);

/** Where free-plan users often sign up from. */
export const PERSONAL_DOMAINS = ["gmail.com", "outlook.com", "yahoo.com", "icloud.com", "proton.me"] as const;

export interface Country {
  code: string;
  weight: number;
  /** Digits after the +, before the subscriber number. */
  prefixes: readonly string[];
  /** Digits in the subscriber number. */
  digits: number;
}

export const COUNTRIES: readonly Country[] = [
  { code: "US", weight: 34, prefixes: ["1415", "1212", "1312", "1512", "1206", "1617", "1303"], digits: 7 },
  { code: "GB", weight: 12, prefixes: ["447700", "447911", "447400"], digits: 6 },
  { code: "DE", weight: 9, prefixes: ["49151", "49160", "49170"], digits: 8 },
  { code: "FR", weight: 7, prefixes: ["336", "337"], digits: 8 },
  { code: "CA", weight: 6, prefixes: ["1416", "1604", "1514"], digits: 7 },
  { code: "IN", weight: 7, prefixes: ["9198", "9190", "9170"], digits: 8 },
  { code: "AU", weight: 4, prefixes: ["614"], digits: 8 },
  { code: "NL", weight: 4, prefixes: ["316"], digits: 8 },
  { code: "BR", weight: 4, prefixes: ["55119", "55219"], digits: 8 },
  { code: "JP", weight: 3, prefixes: ["8190", "8180"], digits: 8 },
  { code: "ES", weight: 3, prefixes: ["346"], digits: 8 },
  { code: "SE", weight: 2, prefixes: ["4670", "4673"], digits: 7 },
  { code: "SG", weight: 2, prefixes: ["658", "659"], digits: 7 },
  { code: "IE", weight: 2, prefixes: ["35385", "35387"], digits: 7 },
  { code: "MX", weight: 1, prefixes: ["5255"], digits: 8 },
];
