import type { Snippet } from "../snippet";

export default [
  {
    name: "typed-arrays: UTF-8 bytes of names",
    code: `const enc = new TextEncoder();
return ["Zoë", "Ångström", "😀", "abc"].map(s => ({ s, bytes: Array.from(enc.encode(s)), length: enc.encode(s).length }));`,
  },
  {
    name: "typed-arrays: TextDecoder round trip",
    code: `const bytes = new Uint8Array([0x4d, 0xc3, 0xbc, 0x6c, 0x6c, 0x65, 0x72, 0x20, 0xf0, 0x9f, 0x91, 0x8b]);
const dec = new TextDecoder();
return { text: dec.decode(bytes), encoding: dec.encoding, partial: dec.decode(bytes.subarray(0, 2)) };`,
  },
  {
    name: "typed-arrays: hex encoding helper",
    code: `const toHex = (buf: Uint8Array) => Array.from(buf, b => b.toString(16).padStart(2, "0")).join("");
const fromHex = (hex: string) => new Uint8Array(hex.match(/.{2}/g)!.map(h => parseInt(h, 16)));
const bytes = new TextEncoder().encode("Øster!");
const hex = toHex(bytes);
return { hex, back: new TextDecoder().decode(fromHex(hex)) };`,
  },
  {
    name: "typed-arrays: base64 with btoa and atob",
    code: `const creds = "api_user:s3cr3t!";
const b64 = btoa(creds);
return { b64, decoded: atob(b64), header: "Basic " + b64, padded: btoa("a"), atobWs: atob(" YW Jj ") };`,
  },
  {
    name: "typed-arrays: base64 of unicode text",
    code: `function toBase64(s: string) {
  const bytes = new TextEncoder().encode(s);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}
function fromBase64(b64: string) {
  return new TextDecoder().decode(Uint8Array.from(atob(b64), c => c.charCodeAt(0)));
}
const encoded = toBase64("Ñúñez – café ☕");
let direct: string;
try { direct = btoa("café ☕"); } catch (e: any) { direct = e.name; }
return { encoded, decoded: fromBase64(encoded), direct };`,
  },
  {
    name: "typed-arrays: DataView endianness",
    code: `const buf = new ArrayBuffer(8);
const view = new DataView(buf);
view.setUint32(0, 0xdeadbeef);
view.setUint16(4, 513, true);
view.setInt16(6, -2);
return {
  bytes: Array.from(new Uint8Array(buf)),
  be: view.getUint32(0).toString(16),
  le: view.getUint32(0, true).toString(16),
  u16: view.getUint16(4, true),
  i16: view.getInt16(6),
};`,
  },
  {
    name: "typed-arrays: SHA-256 hex digest",
    code: `const data = new TextEncoder().encode("hello world");
const hash = await crypto.subtle.digest("SHA-256", data);
return Array.from(new Uint8Array(hash)).map(b => b.toString(16).padStart(2, "0")).join("");`,
  },
  {
    name: "typed-arrays: SHA-1 and SHA-512 digests of unicode",
    code: `async function hex(alg: string, s: string) {
  const buf = await crypto.subtle.digest(alg, new TextEncoder().encode(s));
  return [...new Uint8Array(buf)].map(b => b.toString(16).padStart(2, "0")).join("");
}
return { sha1: await hex("SHA-1", "Zoë"), sha512: (await hex("SHA-512", "Zoë")).slice(0, 32) };`,
  },
  {
    name: "typed-arrays: Float32 precision loss",
    code: `const f = new Float32Array([0.1, 1 / 3, 16777217, 3.4e39]);
return { values: Array.from(f), f64: Array.from(new Float64Array([0.1, 1 / 3])) };`,
  },
  {
    name: "typed-arrays: clamped and wrapped integers",
    code: `return {
  clamped: Array.from(new Uint8ClampedArray([-5, 0, 127.5, 128.5, 255, 300])),
  wrapped: Array.from(new Uint8Array([-1, 256, 257, 1.9])),
  int16: Array.from(new Int16Array([32768, -32769, 65535])),
};`,
  },
  {
    name: "typed-arrays: ArrayBuffer slice and subarray views",
    code: `const all = Uint8Array.from({ length: 10 }, (_, i) => i * 10);
const copy = all.slice(2, 5);
const view = all.subarray(2, 5);
all[3] = 99;
return { copy: Array.from(copy), view: Array.from(view), byteOffset: view.byteOffset, bufLen: view.buffer.byteLength, sliced: new Uint8Array(all.buffer.slice(8)).length };`,
  },
  {
    name: "typed-arrays: concatenating buffers",
    code: `const parts = [new Uint8Array([1, 2]), new Uint8Array([3]), new Uint8Array([4, 5, 6])];
const total = parts.reduce((n, p) => n + p.length, 0);
const out = new Uint8Array(total);
let offset = 0;
for (const p of parts) { out.set(p, offset); offset += p.length; }
return { out: Array.from(out), str: out.toString(), json: JSON.stringify(out) };`,
  },
  {
    name: "typed-arrays: TextDecoder fatal on invalid bytes",
    code: `const bad = new Uint8Array([0x61, 0xff, 0x62]);
const lenient = new TextDecoder().decode(bad);
try {
  new TextDecoder("utf-8", { fatal: true }).decode(bad);
  return { lenient, strict: "decoded" };
} catch (e: any) {
  return { lenient, strictError: e.name };
}`,
  },
  {
    name: "typed-arrays: BigUint64Array and BigInt64 values",
    code: `const big = new BigUint64Array([2n ** 64n - 1n, 42n]);
const view = new DataView(big.buffer);
return { values: Array.from(big, v => v.toString()), low32: view.getUint32(0, true), signed: new BigInt64Array(big.buffer)[0].toString() };`,
  },
  {
    name: "typed-arrays: typed array methods",
    code: `const scores = new Float64Array([3.5, 1.25, 9, 4]);
return {
  sorted: Array.from(scores.slice().sort()),
  max: Math.max(...scores),
  mapped: Array.from(scores.map(x => x * 2)),
  filtered: Array.from(scores.filter(x => x > 3)),
  idx: scores.indexOf(9),
  joined: scores.join("|"),
  tag: Object.prototype.toString.call(scores),
};`,
  },
  {
    name: "typed-arrays: HMAC signature with crypto.subtle",
    code: `const enc = new TextEncoder();
const key = await crypto.subtle.importKey("raw", enc.encode("webhook-secret"), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
const sig = await crypto.subtle.sign("HMAC", key, enc.encode('{"event":"order.paid","id":42}'));
return Array.from(new Uint8Array(sig), b => b.toString(16).padStart(2, "0")).join("");`,
  },
  {
    name: "typed-arrays: TextEncoder encodeInto",
    code: `const target = new Uint8Array(5);
const r = new TextEncoder().encodeInto("Zoë😀", target);
return { read: r.read, written: r.written, bytes: Array.from(target) };`,
  },
] satisfies Snippet[];
