import type { Snippet } from "../snippet";

export default [
  {
    name: "dates: ISO string of a fixed timestamp",
    code: `const d = new Date("2026-01-02T10:00:00Z");
return { iso: d.toISOString(), ms: d.getTime(), json: d.toJSON() };`,
  },
  {
    name: "dates: long weekday and month in en-US",
    code: `const d = new Date("2026-03-07T15:30:00Z");
return d.toLocaleDateString("en-US", { weekday: "long", year: "numeric", month: "long", day: "numeric" });`,
  },
  {
    name: "dates: German and French long dates",
    code: `const d = new Date("2026-03-07T15:30:00Z");
const opts: Intl.DateTimeFormatOptions = { weekday: "long", year: "numeric", month: "long", day: "numeric" };
return { de: d.toLocaleDateString("de-DE", opts), fr: d.toLocaleDateString("fr-FR", opts), es: d.toLocaleDateString("es-ES", opts) };`,
  },
  {
    name: "dates: default toLocaleDateString and toLocaleTimeString",
    code: `const d = new Date("2026-07-04T18:05:09Z");
return { date: d.toLocaleDateString(), time: d.toLocaleTimeString(), both: d.toLocaleString() };`,
  },
  {
    name: "dates: time in en-US with and without seconds",
    code: `const d = new Date("2026-01-02T09:07:03Z");
return {
  full: d.toLocaleTimeString("en-US"),
  short: d.toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit" }),
  h23: d.toLocaleTimeString("en-US", { hour12: false }),
  gb: d.toLocaleTimeString("en-GB"),
};`,
  },
  {
    name: "dates: meeting time in New York",
    code: `const meeting = new Date("2026-01-15T17:00:00Z");
const fmt = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/New_York",
  dateStyle: "full",
  timeStyle: "short",
});
return fmt.format(meeting);`,
  },
  {
    name: "dates: same instant in several time zones",
    code: `const d = new Date("2026-06-30T23:30:00Z");
const zones = ["UTC", "America/New_York", "Europe/Berlin", "Asia/Tokyo", "Asia/Kolkata", "Australia/Sydney"];
return zones.map(tz => ({
  tz,
  local: d.toLocaleString("en-US", { timeZone: tz, timeZoneName: "short" }),
}));`,
  },
  {
    name: "dates: Tokyo wall-clock time in Japanese",
    code: `const d = new Date("2026-01-02T10:00:00Z");
return new Intl.DateTimeFormat("ja-JP", {
  timeZone: "Asia/Tokyo",
  year: "numeric", month: "long", day: "numeric", weekday: "short",
  hour: "2-digit", minute: "2-digit",
}).format(d);`,
  },
  {
    name: "dates: formatRange for a trip",
    code: `const start = new Date("2026-03-10T00:00:00Z");
const end = new Date("2026-03-14T00:00:00Z");
const fmt = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric" });
const other = new Date("2026-04-02T00:00:00Z");
return { sameMonth: fmt.formatRange(start, end), crossMonth: fmt.formatRange(start, other) };`,
  },
  {
    name: "dates: add days to a due date",
    code: `function addDays(date: Date, days: number): Date {
  const d = new Date(date);
  d.setUTCDate(d.getUTCDate() + days);
  return d;
}
const created = new Date("2026-01-28T12:00:00Z");
return [1, 4, 30, 365].map(n => addDays(created, n).toISOString().slice(0, 10));`,
  },
  {
    name: "dates: days between two dates",
    code: `const opened = new Date("2026-01-02T10:00:00Z");
const closed = new Date("2026-02-14T16:30:00Z");
const ms = closed.getTime() - opened.getTime();
return {
  days: Math.floor(ms / 86400000),
  hours: Math.round(ms / 3600000),
  exactDays: +(ms / 86400000).toFixed(2),
};`,
  },
  {
    name: "dates: parse a long-form English date",
    code: `const t = Date.parse("March 7, 2026");
return { t, iso: new Date(t).toISOString() };`,
  },
  {
    name: "dates: parse slash-separated date",
    code: `const d = new Date("2026/01/02");
return { valid: !isNaN(d.getTime()), iso: isNaN(d.getTime()) ? null : d.toISOString() };`,
  },
  {
    name: "dates: parse short month with time",
    code: `const inputs = ["Jan 2 2026 10:00", "2 Jan 2026", "01/02/2026", "2026-01-02 10:00"];
return inputs.map(s => {
  const t = Date.parse(s);
  return { s, iso: Number.isNaN(t) ? null : new Date(t).toISOString() };
});`,
  },
  {
    name: "dates: String of a date",
    code: `const d = new Date("2026-01-02T10:00:00Z");
return String(d);`,
  },
  {
    name: "dates: date in a template literal",
    code: `const d = new Date(Date.UTC(2026, 4, 17, 8, 45));
return \`Report generated at \${d}\`;`,
  },
  {
    name: "dates: toString, toDateString, toTimeString, toUTCString",
    code: `const d = new Date("2026-11-05T21:14:00Z");
return {
  toString: d.toString(),
  toDateString: d.toDateString(),
  toTimeString: d.toTimeString(),
  toUTCString: d.toUTCString(),
};`,
  },
  {
    name: "dates: weekday names via getDay",
    code: `const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const dates = ["2026-01-01", "2026-02-14", "2026-12-25"].map(s => new Date(s + "T00:00:00Z"));
return dates.map(d => ({ date: d.toISOString().slice(0, 10), day: days[d.getDay()], utcDay: d.getUTCDay() }));`,
  },
  {
    name: "dates: timezone offset and local getters",
    code: `const d = new Date(2026, 0, 2, 10, 30);
return {
  offset: d.getTimezoneOffset(),
  iso: d.toISOString(),
  hours: d.getHours(),
  utcHours: d.getUTCHours(),
  year: d.getFullYear(),
  month: d.getMonth(),
};`,
  },
  {
    name: "dates: relative time for activity feed",
    code: `const now = new Date("2026-01-10T12:00:00Z").getTime();
const events = ["2026-01-10T11:58:00Z", "2026-01-10T09:00:00Z", "2026-01-09T12:00:00Z", "2026-01-03T12:00:00Z", "2025-11-10T12:00:00Z"];
const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
function rel(iso: string): string {
  const diffSec = (new Date(iso).getTime() - now) / 1000;
  const units: [Intl.RelativeTimeFormatUnit, number][] = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400], ["hour", 3600], ["minute", 60]];
  for (const [unit, secs] of units) {
    if (Math.abs(diffSec) >= secs) return rtf.format(Math.round(diffSec / secs), unit);
  }
  return rtf.format(Math.round(diffSec), "second");
}
return events.map(rel);`,
  },
  {
    name: "dates: last day of month",
    code: `const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
return { jan: lastDay(2026, 0), feb2026: lastDay(2026, 1), feb2028: lastDay(2028, 1), apr: lastDay(2026, 3) };`,
  },
  {
    name: "dates: ISO week number",
    code: `function isoWeek(date: Date): number {
  const d = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const dayNum = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - dayNum);
  const yearStart = new Date(Date.UTC(d.getUTCFullYear(), 0, 1));
  return Math.ceil(((d.getTime() - yearStart.getTime()) / 86400000 + 1) / 7);
}
return ["2026-01-01", "2026-01-05", "2026-06-15", "2026-12-31", "2027-01-03"].map(s => ({ s, week: isoWeek(new Date(s)) }));`,
  },
  {
    name: "dates: Date.UTC and local constructor",
    code: `const utc = Date.UTC(2026, 0, 2, 10, 0, 0);
const local = new Date(2026, 0, 2, 10, 0, 0).getTime();
return { utc, local, same: utc === local, fromParts: new Date(2026, 11, 31, 23, 59, 59, 999).toISOString() };`,
  },
  {
    name: "dates: invalid date handling",
    code: `const d = new Date("not a date");
return {
  time: d.getTime(),
  isNaN: isNaN(d.getTime()),
  str: String(d),
  json: JSON.stringify({ d }),
  locale: d.toLocaleDateString("en-US"),
};`,
  },
  {
    name: "dates: toISOString on an invalid date is caught",
    code: `try {
  const d = new Date("2026-13-45");
  return d.toISOString();
} catch (e) {
  return { name: (e as Error).name, message: (e as Error).message };
}`,
  },
  {
    name: "dates: formatToParts to build a custom stamp",
    code: `const d = new Date("2026-08-09T04:05:06Z");
const parts = new Intl.DateTimeFormat("en-US", {
  year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false, timeZone: "UTC",
}).formatToParts(d);
const get = (t: string) => parts.find(p => p.type === t)?.value;
return { parts: parts.map(p => p.type + ":" + p.value), stamp: \`\${get("year")}\${get("month")}\${get("day")}-\${get("hour")}\${get("minute")}\${get("second")}\` };`,
  },
  {
    name: "dates: dateStyle and timeStyle across locales",
    code: `const d = new Date("2026-02-03T14:15:00Z");
const out: Record<string, string> = {};
for (const loc of ["en-US", "en-GB", "de-DE", "fr-FR", "ja-JP", "pt-BR"]) {
  out[loc] = new Intl.DateTimeFormat(loc, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(d);
}
return out;`,
  },
  {
    name: "dates: en-GB and en-US numeric dates",
    code: `const d = new Date("2026-04-09T00:00:00Z");
return { gb: d.toLocaleDateString("en-GB"), us: d.toLocaleDateString("en-US"), de: d.toLocaleDateString("de-DE"), ja: d.toLocaleDateString("ja-JP"), iso: d.toLocaleDateString("sv-SE") };`,
  },
  {
    name: "dates: sort tickets by createdAt",
    code: `interface Ticket { id: string; createdAt: string }
const tickets: Ticket[] = [
  { id: "T-3", createdAt: "2026-01-05T09:00:00Z" },
  { id: "T-1", createdAt: "2025-12-30T17:45:00Z" },
  { id: "T-2", createdAt: "2026-01-05T08:59:59Z" },
];
const newest = [...tickets].sort((a, b) => new Date(b.createdAt).getTime() - new Date(a.createdAt).getTime());
return newest.map(t => t.id);`,
  },
  {
    name: "dates: group orders by month",
    code: `const orders = [
  { id: 1, date: "2026-01-15T10:00:00Z", amount: 120 },
  { id: 2, date: "2026-01-31T23:59:00Z", amount: 80 },
  { id: 3, date: "2026-02-01T00:01:00Z", amount: 200 },
  { id: 4, date: "2026-03-10T12:00:00Z", amount: 50 },
];
const byMonth: Record<string, number> = {};
for (const o of orders) {
  const d = new Date(o.date);
  const key = d.getFullYear() + "-" + String(d.getMonth() + 1).padStart(2, "0");
  byMonth[key] = (byMonth[key] ?? 0) + o.amount;
}
return byMonth;`,
  },
  {
    name: "dates: business days between dates",
    code: `function businessDays(from: Date, to: Date): number {
  let count = 0;
  const d = new Date(from);
  while (d < to) {
    const day = d.getUTCDay();
    if (day !== 0 && day !== 6) count++;
    d.setUTCDate(d.getUTCDate() + 1);
  }
  return count;
}
return businessDays(new Date("2026-01-01"), new Date("2026-02-01"));`,
  },
  {
    name: "dates: date-only versus date-time ISO parsing",
    code: `return {
  dateOnly: new Date("2026-01-02").toISOString(),
  dateTimeNoZone: new Date("2026-01-02T00:00").toISOString(),
  withOffset: new Date("2026-01-02T00:00:00+05:30").toISOString(),
  withMs: new Date("2026-01-02T10:00:00.123Z").getMilliseconds(),
};`,
  },
  {
    name: "dates: JSON round-trip of a record with dates",
    code: `const record = { id: "evt_1", at: new Date("2026-05-05T05:05:05.005Z"), tags: ["a"] };
const json = JSON.stringify(record);
const back = JSON.parse(json);
return { json, isString: typeof back.at === "string", restored: new Date(back.at).getTime() === record.at.getTime() };`,
  },
  {
    name: "dates: resolved time zone and locale",
    code: `const opts = Intl.DateTimeFormat().resolvedOptions();
return { timeZone: opts.timeZone, calendar: opts.calendar, numberingSystem: opts.numberingSystem };`,
  },
  {
    name: "dates: add a month at the end of January",
    code: `const d = new Date(Date.UTC(2026, 0, 31));
const naive = new Date(d);
naive.setUTCMonth(naive.getUTCMonth() + 1);
const clamped = new Date(Date.UTC(2026, 1, Math.min(31, new Date(Date.UTC(2026, 2, 0)).getUTCDate())));
return { naive: naive.toISOString().slice(0, 10), clamped: clamped.toISOString().slice(0, 10) };`,
  },
  {
    name: "dates: London time across the DST switch",
    code: `const instants = ["2026-03-28T12:00:00Z", "2026-03-29T12:00:00Z", "2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z"];
return instants.map(s => new Date(s).toLocaleString("en-GB", { timeZone: "Europe/London", timeZoneName: "short" }));`,
  },
  {
    name: "dates: month names for a chart axis",
    code: `const fmt = new Intl.DateTimeFormat("en-US", { month: "short", timeZone: "UTC" });
const months = Array.from({ length: 12 }, (_, i) => fmt.format(new Date(Date.UTC(2026, i, 1))));
const de = Array.from({ length: 12 }, (_, i) => new Date(Date.UTC(2026, i, 1)).toLocaleString("de-DE", { month: "long" }));
return { months, de };`,
  },
  {
    name: "dates: parse RFC 2822 style header dates",
    code: `const headers = ["Thu, 01 Jan 2026 00:00:00 GMT", "Fri, 02 Jan 2026 10:00:00 +0100", "Sat, 3 Jan 2026 08:30:00 -0500"];
return headers.map(h => new Date(h).toISOString());`,
  },
  {
    name: "dates: duration formatting from milliseconds",
    code: `function fmtDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return [h, m, sec].map(v => String(v).padStart(2, "0")).join(":");
}
const start = new Date("2026-01-02T08:15:30Z");
const end = new Date("2026-01-02T17:02:05Z");
return { elapsed: fmtDuration(end.getTime() - start.getTime()), iso: new Date(end.getTime() - start.getTime()).toISOString().substring(11, 19) };`,
  },
  {
    name: "dates: hourCycle and dayPeriod options",
    code: `const d = new Date("2026-01-02T00:30:00Z");
return {
  h12: d.toLocaleTimeString("en-US", { timeZone: "UTC", hourCycle: "h12" }),
  h23: d.toLocaleTimeString("en-US", { timeZone: "UTC", hourCycle: "h23" }),
  dayPeriod: new Intl.DateTimeFormat("en-US", { hour: "numeric", dayPeriod: "short", timeZone: "UTC" }).format(new Date("2026-01-02T15:00:00Z")),
};`,
  },
  {
    name: "dates: start of week and quarter",
    code: `const d = new Date("2026-05-14T13:00:00Z");
const startOfWeek = new Date(d);
startOfWeek.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
startOfWeek.setUTCHours(0, 0, 0, 0);
const quarter = Math.floor(d.getUTCMonth() / 3) + 1;
const startOfQuarter = new Date(Date.UTC(d.getUTCFullYear(), (quarter - 1) * 3, 1));
return { startOfWeek: startOfWeek.toISOString(), quarter: "Q" + quarter, startOfQuarter: startOfQuarter.toISOString() };`,
  },
  {
    name: "dates: compare and check overlaps of bookings",
    code: `const bookings = [
  { id: "b1", start: "2026-02-01T09:00:00Z", end: "2026-02-01T10:00:00Z" },
  { id: "b2", start: "2026-02-01T09:30:00Z", end: "2026-02-01T11:00:00Z" },
  { id: "b3", start: "2026-02-01T11:00:00Z", end: "2026-02-01T12:00:00Z" },
];
const overlaps: string[] = [];
for (let i = 0; i < bookings.length; i++) {
  for (let j = i + 1; j < bookings.length; j++) {
    const a = bookings[i], b = bookings[j];
    if (new Date(a.start) < new Date(b.end) && new Date(b.start) < new Date(a.end)) overlaps.push(a.id + "/" + b.id);
  }
}
return overlaps;`,
  },
  {
    name: "dates: Date from numeric timestamp seconds",
    code: `const unixSeconds = [1767225600, 1770000000, 0];
return unixSeconds.map(s => ({ s, iso: new Date(s * 1000).toISOString(), back: Math.floor(new Date(s * 1000).valueOf() / 1000) }));`,
  },
  {
    name: "dates: era and year-only formats",
    code: `const d = new Date("2026-09-01T00:00:00Z");
return {
  year: d.toLocaleDateString("en-US", { year: "numeric", timeZone: "UTC" }),
  monthYear: d.toLocaleDateString("en-US", { month: "long", year: "numeric", timeZone: "UTC" }),
  twoDigit: d.toLocaleDateString("en-US", { year: "2-digit", month: "2-digit", day: "2-digit", timeZone: "UTC" }),
  era: d.toLocaleDateString("en-US", { era: "short", year: "numeric", timeZone: "UTC" }),
};`,
  },
] satisfies Snippet[];
