import { describe, expect, it } from "vitest";
import type { PiiKind } from "../../shared/contract/session";
import { detectPii } from "../../shared/privacy/detect";
import { expectLinearScan } from "../helpers/growth";

/** [kind, text, the one value expected in it] */
const POSITIVES: [PiiKind, string, string][] = [
  ["EMAIL", "Contact alice.smith@example.com for details", "alice.smith@example.com"],
  ["EMAIL", "bob+billing@mail.example.org", "bob+billing@mail.example.org"],
  ["EMAIL", '{"owner":"carla_o@corp.example.net"}', "carla_o@corp.example.net"],
  ["EMAIL", "Emails: <dmitri.n@example.co.uk>, thanks", "dmitri.n@example.co.uk"],
  ["EMAIL", "Reply to Emma (EMMA.DUBOIS@EXAMPLE.COM).", "EMMA.DUBOIS@EXAMPLE.COM"],
  ["EMAIL", "sent by farid-99@sub.domain.example.io", "farid-99@sub.domain.example.io"],
  ["EMAIL", "mailto:grace.h@example.com?subject=hi", "grace.h@example.com"],
  ["EMAIL", "user hiro%tokyo@example.jp wrote", "hiro%tokyo@example.jp"],
  ["EMAIL", "Ines wrote from ines@example.com.", "ines@example.com"],
  ["PHONE", "Call Alice at +1 (415) 555-0123 today", "+1 (415) 555-0123"],
  ["PHONE", "+14155550123", "+14155550123"],
  ["PHONE", '{"phone":"+44 20 7946 0958"}', "+44 20 7946 0958"],
  ["PHONE", "Bob: (415) 555-0123.", "(415) 555-0123"],
  ["PHONE", "office 415-555-0123", "415-555-0123"],
  ["PHONE", "mobile 415.555.0199!", "415.555.0199"],
  ["PHONE", "London office 020 7946 0958", "020 7946 0958"],
  ["PHONE", "mobile 07700 900123", "07700 900123"],
  ["PHONE", "Berlin: 030 1234567", "030 1234567"],
  ["PHONE", "Tél. 06 12 34 56 78", "06 12 34 56 78"],
  ["PHONE", "+49 30 1234567 (Jonas)", "+49 30 1234567"],
  ["PHONE", "Liam +33 6 12 34 56 78", "+33 6 12 34 56 78"],
  ["PHONE", "UK: +44 (0)20 7946 0958", "+44 (0)20 7946 0958"],
  ["PHONE", "Kemi, +234 803 123 4567, Lagos", "+234 803 123 4567"],
  ["PHONE", "1-800-555-0199 toll free", "1-800-555-0199"],
  ["PHONE", "Tokyo +81 3-1234-5678", "+81 3-1234-5678"],
  ["CARD", "card 4111 1111 1111 1111 exp 12/27", "4111 1111 1111 1111"],
  ["CARD", "4111-1111-1111-1111", "4111-1111-1111-1111"],
  ["CARD", '{"pan":"5555555555554444"}', "5555555555554444"],
  ["CARD", "MC 5105 1051 0510 5100.", "5105 1051 0510 5100"],
  ["CARD", "2-series 2223003122003222", "2223003122003222"],
  ["CARD", "Amex 3782 822463 10005 on file", "3782 822463 10005"],
  ["CARD", "378282246310005", "378282246310005"],
  ["CARD", "Discover: 6011111111111117", "6011111111111117"],
  ["CARD", "Diners 30569309025904", "30569309025904"],
  ["CARD", "JCB 3530111333300000 (Hiro)", "3530111333300000"],
  ["CARD", "old visa 4222222222222", "4222222222222"],
  ["SSN", "SSN 123-45-6789", "123-45-6789"],
  ["SSN", "ssn: 078-05-1120, verified", "078-05-1120"],
  ["SSN", '{"ssn":"219-09-9999"}', "219-09-9999"],
  ["SSN", "Employee 536-22-8726 on file", "536-22-8726"],
  ["SSN", "001-01-0001", "001-01-0001"],
  ["SSN", "Number (665-12-3456)", "665-12-3456"],
  ["SSN", "899-99-9999 is the highest area", "899-99-9999"],
  ["SSN", "SSN:457-55-5462.", "457-55-5462"],
  ["IBAN", "Pay to DE89 3704 0044 0532 0130 00 please", "DE89 3704 0044 0532 0130 00"],
  ["IBAN", "DE89370400440532013000", "DE89370400440532013000"],
  ["IBAN", '{"iban":"GB82 WEST 1234 5698 7654 32"}', "GB82 WEST 1234 5698 7654 32"],
  ["IBAN", "IBAN: GB29NWBK60161331926819.", "GB29NWBK60161331926819"],
  ["IBAN", "FR14 2004 1010 0505 0001 3M02 606", "FR14 2004 1010 0505 0001 3M02 606"],
  ["IBAN", "NL91ABNA0417164300 (Jonas)", "NL91ABNA0417164300"],
  ["IBAN", "ES91 2100 0418 4502 0005 1332", "ES91 2100 0418 4502 0005 1332"],
  ["IBAN", "Konto IT60 X054 2811 1010 0000 0123 456", "IT60 X054 2811 1010 0000 0123 456"],
  ["IBAN", "CH93 0076 2011 6238 5295 7", "CH93 0076 2011 6238 5295 7"],
  ["IBAN", "BE68 5390 0754 7034 EUR", "BE68 5390 0754 7034"],
  ["IBAN", "NO93 8601 1117 947", "NO93 8601 1117 947"],
  ["IP", "from 192.168.1.20 at noon", "192.168.1.20"],
  ["IP", "10.0.0.1", "10.0.0.1"],
  ["IP", '{"ip":"8.8.8.8"}', "8.8.8.8"],
  ["IP", "host 203.0.113.7:8080", "203.0.113.7"],
  ["IP", "subnet 10.0.0.0/8", "10.0.0.0"],
  ["IP", "Client IP: 255.255.255.255.", "255.255.255.255"],
  ["IP", "fe80::1ff:fe23:4567:890a", "fe80::1ff:fe23:4567:890a"],
  ["IP", "route via 2001:db8::ff00:42:8329 today", "2001:db8::ff00:42:8329"],
  ["IP", "[2001:db8::1]:443", "2001:db8::1"],
  ["IP", "2001:0db8:85a3:0000:0000:8a2e:0370:7334", "2001:0db8:85a3:0000:0000:8a2e:0370:7334"],
  ["IP", "mapped ::ffff:192.0.2.128", "::ffff:192.0.2.128"],
  ["IP", "link fe80::1%eth0", "fe80::1"],
];

/** Numbers, ids, dates, versions and near-misses that are not personal data. */
const NEGATIVES: string[] = [
  "Order 12345678",
  "version 4.2.1",
  "v10.0.1",
  "1.2.3",
  "semver 1.2.3-beta.1+build.5",
  "2024-05-01",
  "01/02/2024",
  "2024-05-01T12:30:45.123Z",
  "2024-05-01 12:30:45",
  "2024-05-01T12:30:45+02:00",
  "1716200000000",
  "epoch 1716200000",
  "550e8400-e29b-41d4-a716-446655440000",
  "deadbeefcafebabe0123456789abcdef",
  "0x1f2e3d4c5b6a",
  "5f2b6c9d8e7a1b3c4d5e6f7a",
  "ORD-2024-000123",
  "T-10042",
  "ticket T-10042 closed",
  "tracking 1Z999AA10123456784",
  "USPS 9400111899223197428490",
  "FedEx 7489 1234 5678",
  "ZIP 94107",
  "ZIP+4 94107-1234",
  "$1,299.99",
  "1,234,567.89",
  "€ 1.234.567,89",
  "port 8080",
  "line 12:30",
  "at 12:30:45",
  "ISBN 978-3-16-148410-0",
  "ISBN 0-306-40615-2",
  "4111111111111112",
  "4111 1111 1111 1112",
  "1234 5678 9012 3456",
  "0000 0000 0000 0000",
  "DE88 3704 0044 0532 0130 00",
  "GB82WEST12345698765433",
  "999-99-9999",
  "000-12-3456",
  "666-12-3456",
  "123-00-4567",
  "123-45-0000",
  "256.1.1.1",
  "1.2.3.4.5",
  "01.02.03.04",
  "192.168.1",
  "version 1.2.3.4",
  "Build 10.0.19041.1",
  "::",
  "a:b",
  "std::vector<int>",
  "Foo::Bar::baz",
  "12:30:45",
  "00:1a:2b:3c:4d:5e",
  "dead::beef",
  "::1",
  "user@localhost",
  "@example.com",
  "alice@",
  "a@b.c",
  "555-0123",
  "123-456-7890",
  "4155550123",
  "+1 555",
  "+02:00",
  "score +3 points",
  "+1,299",
  "Invoice INV-88231",
  "Room 1234, floor 5",
  "3.14159265358979",
  "-122.4194, 37.7749",
  "10.5%",
  "1920x1080",
  "rgb(255, 255, 255)",
  "#ff00ff",
  "SKU 0012-3456-7890",
  "CVE-2024-12345",
  "RFC 5952",
  "2 000 000 000",
  "1 000 000 000 000 000",
  "2024.05.01",
  "05.01.2024 14:30",
  "12 34 56 78 90",
  "Order #4111111111111111111111",
  "id 41111111111111110",
  "AB12CDEF3456GHIJ78",
  "ID-415-555-0123",
  "415-555-0123-99",
  "x1.2.3.4",
  "2001:db8",
  "10.0.0.1.2",
  "4111111111111111x",
  "9780306406157",
  "isbn13 978-0-306-40615-7",
];

const kinds = (found: ReturnType<typeof detectPii>) => found.map((m) => `${m.kind}:${m.value}`);

describe("detectPii: true positives", () => {
  it("has at least 8 realistic cases per kind", () => {
    for (const kind of ["EMAIL", "PHONE", "CARD", "SSN", "IBAN", "IP"] as const) {
      expect(POSITIVES.filter(([k]) => k === kind).length).toBeGreaterThanOrEqual(8);
    }
  });

  it.each(POSITIVES)("%s in %j", (kind, text, value) => {
    const found = detectPii(text);
    expect(kinds(found)).toEqual([`${kind}:${value}`]);
    const [match] = found;
    expect(text.slice(match!.start, match!.end)).toBe(value);
  });

  it("finds several values in one text, sorted, without overlap", () => {
    const text =
      "Alice (alice@example.com, +1 415 555 0123) paid with 4111 1111 1111 1111 from 10.0.0.7; " +
      "refund to DE89 3704 0044 0532 0130 00, SSN 123-45-6789, office 020 7946 0958, ip fe80::1";
    expect(kinds(detectPii(text))).toEqual([
      "EMAIL:alice@example.com",
      "PHONE:+1 415 555 0123",
      "CARD:4111 1111 1111 1111",
      "IP:10.0.0.7",
      "IBAN:DE89 3704 0044 0532 0130 00",
      "SSN:123-45-6789",
      "PHONE:020 7946 0958",
      "IP:fe80::1",
    ]);
  });

  it("prefers the longer match on overlap", () => {
    // the embedded IPv4 of a mapped IPv6 address is part of the IPv6 match
    expect(kinds(detectPii("::ffff:10.1.2.3"))).toEqual(["IP:::ffff:10.1.2.3"]);
    // a national shape inside an international number is not a second match
    expect(kinds(detectPii("+1 415 555 0123"))).toEqual(["PHONE:+1 415 555 0123"]);
  });
});

describe("detectPii: true negatives", () => {
  it("has at least 60 cases", () => {
    expect(NEGATIVES.length).toBeGreaterThanOrEqual(60);
  });

  it.each(NEGATIVES)("nothing in %j", (text) => {
    expect(kinds(detectPii(text))).toEqual([]);
  });

  it("takes nothing from a digit run inside a longer run or word", () => {
    expect(detectPii("x4111111111111111")).toEqual([]);
    expect(detectPii("14155550123456789")).toEqual([]);
    expect(detectPii("ab123-45-6789")).toEqual([]);
    expect(detectPii("ref_192.168.0.1")).toEqual([]);
  });
});

describe("detectPii: adversarial input", () => {
  const fill = (unit: string) => (chars: number) =>
    unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
  const inputs = [
    "1 ",
    "a@",
    "+1-",
    "::",
    "1",
    "1-",
    "1.",
    "1:",
    "a.",
    "AB12 ",
    "DE89 3704 ",
    "+1 (",
    "x@y.",
    "f:",
    "06 ",
    "12 ",
    "(1",
    "0",
    "1.1.1.",
    "a-",
    "A1",
  ];

  it.each(inputs)("text of %j is scanned in time linear in its length", (unit) => {
    expectLinearScan(fill(unit), detectPii);
  });

  it("long digit runs and mixed noise are scanned in time linear in their length", () => {
    const noise = (chars: number) => {
      let text = "";
      for (let i = 0; text.length < chars; i++)
        text += `${"9".repeat(50 + (i % 50))} ${"4111".repeat(i % 9)}-@:.+ `;
      return text.slice(0, chars);
    };
    expectLinearScan(noise, detectPii);
  });
});
