import type { Snippet } from "../snippet";

export default [
  {
    name: "math: numbers print the same after code replaces Math.max and Math.min",
    code: `Math.max = () => 0;
Math.min = () => 0;
const xs = [0.1833524199981036, 1 / 3, 123456.789, 5e-7, 2 ** 60];
return { xs, printed: xs.map((x) => [String(x), x.toFixed(3), JSON.stringify({ x }), \`\${x}\`]) };`,
  },
  {
    name: "math: compound interest with Math.pow",
    code: `const principal = 10000;
const rate = 0.045;
const years = [1, 5, 10, 30];
return years.map(y => ({ years: y, monthly: +(principal * Math.pow(1 + rate / 12, 12 * y)).toFixed(2), annual: +(principal * (1 + rate) ** y).toFixed(2) }));`,
  },
  {
    name: "math: continuous compounding with Math.exp",
    code: `const P = 2500, r = 0.06;
return [1, 2, 10].map(t => ({ t, value: P * Math.exp(r * t), rounded: Math.round(P * Math.exp(r * t) * 100) / 100 }));`,
  },
  {
    name: "math: loan amortization payment",
    code: `const principal = 250000, annualRate = 0.0675, years = 30;
const r = annualRate / 12, n = years * 12;
const payment = (principal * r) / (1 - Math.pow(1 + r, -n));
let balance = principal;
const firstThree = [];
for (let i = 0; i < 3; i++) {
  const interest = balance * r;
  const princ = payment - interest;
  balance -= princ;
  firstThree.push({ month: i + 1, interest: interest.toFixed(2), principal: princ.toFixed(2), balance: balance.toFixed(2) });
}
return { payment: payment.toFixed(2), totalPaid: (payment * n).toFixed(2), firstThree };`,
  },
  {
    name: "math: mean, variance and standard deviation",
    code: `const xs = [2, 4, 4, 4, 5, 5, 7, 9];
const mean = xs.reduce((a, b) => a + b) / xs.length;
const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length;
return { mean, variance, sd: Math.sqrt(variance), sampleSd: Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (xs.length - 1)) };`,
  },
  {
    name: "math: geometric mean and log returns",
    code: `const prices = [100, 105, 98, 110, 121];
const logReturns = prices.slice(1).map((p, i) => Math.log(p / prices[i]));
const growth = prices.slice(1).map((p, i) => p / prices[i]);
const geoMean = Math.exp(growth.reduce((s, g) => s + Math.log(g), 0) / growth.length) - 1;
return { logReturns, geoMean, cagr: Math.pow(prices.at(-1)! / prices[0], 1 / (prices.length - 1)) - 1 };`,
  },
  {
    name: "math: trig for haversine distance",
    code: `function haversine(lat1: number, lon1: number, lat2: number, lon2: number) {
  const R = 6371;
  const toRad = (d: number) => (d * Math.PI) / 180;
  const dLat = toRad(lat2 - lat1), dLon = toRad(lon2 - lon1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(lat1)) * Math.cos(toRad(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a));
}
return { stockholmToMalmo: haversine(59.3293, 18.0686, 55.605, 13.0038), nycToTokyo: haversine(40.7128, -74.006, 35.6762, 139.6503) };`,
  },
  {
    name: "math: trig function values",
    code: `const angles = [0, 30, 45, 60, 90, 180, 270];
return angles.map(d => { const r = (d * Math.PI) / 180; return { d, sin: Math.sin(r), cos: Math.cos(r), tan: Math.tan(r) }; });`,
  },
  {
    name: "math: inverse and hyperbolic trig",
    code: `return {
  asin: Math.asin(0.5), acos: Math.acos(-1), atan: Math.atan(1), atan2: Math.atan2(-1, -1),
  sinh: Math.sinh(1), cosh: Math.cosh(1), tanh: Math.tanh(0.5),
  asinh: Math.asinh(1), acosh: Math.acosh(2), atanh: Math.atanh(0.5),
};`,
  },
  {
    name: "math: rounding helpers to n decimals",
    code: `const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const roundEps = (x: number, d = 2) => Math.round((x + Number.EPSILON) * 10 ** d) / 10 ** d;
const xs = [1.005, 2.675, 1.255, 0.125, -1.005, 123.4567];
return xs.map(x => ({ x, round: round(x), roundEps: roundEps(x), toFixed: x.toFixed(2), ceil: Math.ceil(x * 100) / 100, floor: Math.floor(x * 100) / 100, trunc: Math.trunc(x) }));`,
  },
  {
    name: "math: toFixed and toPrecision of computed values",
    code: `const values = [Math.PI, Math.E, Math.SQRT2, 1 / 7, 2 / 3, 1e-10, 123456789.123];
return values.map(v => [v.toFixed(4), v.toPrecision(4), v.toExponential(3)]);`,
  },
  {
    name: "math: floating point sums",
    code: `const cents = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7];
const naive = cents.reduce((a, b) => a + b, 0);
const inCents = cents.reduce((a, b) => a + Math.round(b * 100), 0) / 100;
let kahan = 0, c = 0;
for (const x of Array(10).fill(0.1)) { const y = x - c; const t = kahan + y; c = t - kahan - y; kahan = t; }
return { naive, inCents, tenTenths: Array(10).fill(0.1).reduce((a, b) => a + b), kahan, point3: 0.1 * 3 };`,
  },
  {
    name: "math: logarithms and exponentials",
    code: `return {
  log: Math.log(10), log10: Math.log10(1000), log2: Math.log2(1024), log1p: Math.log1p(1e-10),
  exp: Math.exp(1), expm1: Math.expm1(1e-10), cbrt: Math.cbrt(27), hypot: Math.hypot(3, 4, 12),
  pow: Math.pow(2, 0.5), fround: Math.fround(5.5), clz32: Math.clz32(1), sign: Math.sign(-3),
};`,
  },
  {
    name: "math: percent change and CAGR",
    code: `const revenue = { 2022: 1.2e6, 2023: 1.45e6, 2024: 1.38e6, 2025: 1.9e6 };
const years = Object.keys(revenue).map(Number);
const vals = Object.values(revenue);
const yoy = vals.slice(1).map((v, i) => ((v - vals[i]) / vals[i] * 100).toFixed(1) + "%");
const cagr = (Math.pow(vals.at(-1)! / vals[0], 1 / (years.length - 1)) - 1) * 100;
return { yoy, cagr: cagr.toFixed(2) + "%" };`,
  },
  {
    name: "math: linear regression slope and intercept",
    code: `const xs = [1, 2, 3, 4, 5, 6];
const ys = [2.1, 3.9, 6.2, 7.8, 10.1, 12.2];
const n = xs.length;
const mx = xs.reduce((a, b) => a + b) / n, my = ys.reduce((a, b) => a + b) / n;
const slope = xs.reduce((s, x, i) => s + (x - mx) * (ys[i] - my), 0) / xs.reduce((s, x) => s + (x - mx) ** 2, 0);
const intercept = my - slope * mx;
const ssTot = ys.reduce((s, y) => s + (y - my) ** 2, 0);
const ssRes = ys.reduce((s, y, i) => s + (y - (slope * xs[i] + intercept)) ** 2, 0);
return { slope, intercept, r2: 1 - ssRes / ssTot, predict10: slope * 10 + intercept };`,
  },
  {
    name: "math: normal distribution pdf and cdf approximation",
    code: `const pdf = (x: number, mu = 0, s = 1) => Math.exp(-((x - mu) ** 2) / (2 * s * s)) / (s * Math.sqrt(2 * Math.PI));
function erf(x: number) {
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const y = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return x >= 0 ? y : -y;
}
const cdf = (x: number) => 0.5 * (1 + erf(x / Math.SQRT2));
return { pdf0: pdf(0), pdf1: pdf(1), cdf196: cdf(1.96), cdfNeg1: cdf(-1) };`,
  },
  {
    name: "math: min max with spread and empty arrays",
    code: `const xs = [3, -7, 12.5, 0];
return { max: Math.max(...xs), min: Math.min(...xs), emptyMax: Math.max(), emptyMin: Math.min(), withNaN: Math.max(1, NaN), withStr: Math.max(1, "5" as any) };`,
  },
  {
    name: "math: integer division and modulo of negatives",
    code: `const pairs: [number, number][] = [[7, 3], [-7, 3], [7, -3], [-7, -3], [5.5, 2]];
return pairs.map(([a, b]) => ({ a, b, div: Math.trunc(a / b), floorDiv: Math.floor(a / b), rem: a % b, mod: ((a % b) + b) % b }));`,
  },
  {
    name: "math: gcd, lcm and primes",
    code: `const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const lcm = (a: number, b: number) => (a * b) / gcd(a, b);
const primes = (n: number) => { const s = Array(n + 1).fill(true); s[0] = s[1] = false; for (let i = 2; i * i <= n; i++) if (s[i]) for (let j = i * i; j <= n; j += i) s[j] = false; return s.flatMap((p, i) => (p ? [i] : [])); };
return { gcd: gcd(1071, 462), lcm: lcm(21, 6), primes: primes(50) };`,
  },
  {
    name: "math: factorial, combinations and BigInt factorial",
    code: `const fact = (n: number): number => (n <= 1 ? 1 : n * fact(n - 1));
const choose = (n: number, k: number) => Math.round(fact(n) / (fact(k) * fact(n - k)));
let big = 1n;
for (let i = 1n; i <= 25n; i++) big *= i;
return { f10: fact(10), f20: fact(20), f25: fact(25), f170: fact(170), f171: fact(171), c52_5: choose(52, 5), big25: big.toString() };`,
  },
  {
    name: "math: bitwise operations on flags",
    code: `const READ = 1, WRITE = 2, EXEC = 4;
let perms = READ | WRITE;
perms &= ~WRITE;
perms |= EXEC;
return { perms, canRead: !!(perms & READ), canWrite: (perms & WRITE) !== 0, bin: perms.toString(2).padStart(3, "0"), shift: 1 << 31, ushift: -1 >>> 0, xor: 0b1100 ^ 0b1010 };`,
  },
  {
    name: "math: clamp, lerp and normalization",
    code: `const clamp = (x: number, lo: number, hi: number) => Math.min(Math.max(x, lo), hi);
const lerp = (a: number, b: number, t: number) => a + (b - a) * t;
const scores = [12, 45, 78, 90, 3];
const min = Math.min(...scores), max = Math.max(...scores);
return { clamped: [-5, 50, 150].map(x => clamp(x, 0, 100)), lerp: [0, 0.25, 0.5, 1].map(t => lerp(10, 20, t)), normalized: scores.map(s => +((s - min) / (max - min)).toFixed(3)) };`,
  },
  {
    name: "math: square roots and powers of fractional values",
    code: `return {
  sqrt2: Math.sqrt(2), sqrt1e10: Math.sqrt(1e10), negSqrt: Math.sqrt(-1),
  pow: 1.1 ** 10, powNeg: 2 ** -3, powFrac: 8 ** (1 / 3), powBig: 10 ** 21, powSmall: 10 ** -7,
  root: Math.pow(1000, 1 / 3),
};`,
  },
  {
    name: "math: percentile with linear interpolation",
    code: `function percentile(values: number[], p: number) {
  const s = [...values].sort((a, b) => a - b);
  const idx = (p / 100) * (s.length - 1);
  const lo = Math.floor(idx), hi = Math.ceil(idx);
  return s[lo] + (s[hi] - s[lo]) * (idx - lo);
}
const data = [15, 20, 35, 40, 50, 8, 99, 61, 72, 33];
return [25, 50, 75, 90, 99].map(p => ({ p, v: percentile(data, p) }));`,
  },
  {
    name: "math: NPV and IRR by bisection",
    code: `const flows = [-10000, 3000, 4200, 6800];
const npv = (r: number) => flows.reduce((s, cf, t) => s + cf / Math.pow(1 + r, t), 0);
let lo = 0, hi = 1;
for (let i = 0; i < 100; i++) { const mid = (lo + hi) / 2; npv(mid) > 0 ? (lo = mid) : (hi = mid); }
return { npvAt10: npv(0.1).toFixed(2), irr: (lo * 100).toFixed(4) + "%" };`,
  },
  {
    name: "math: unit conversions with rounding",
    code: `const cToF = (c: number) => (c * 9) / 5 + 32;
const kmToMi = (k: number) => k * 0.621371;
return {
  temps: [-40, 0, 21.5, 37, 100].map(c => Math.round(cToF(c) * 10) / 10),
  miles: [5, 10, 21.0975, 42.195].map(k => kmToMi(k).toFixed(2)),
  bytes: (1536 * 1024 ** 2 / 1024 ** 3).toFixed(3) + " GiB",
};`,
  },
  {
    name: "math: Math constants",
    code: `return { PI: Math.PI, E: Math.E, LN2: Math.LN2, LN10: Math.LN10, LOG2E: Math.LOG2E, LOG10E: Math.LOG10E, SQRT1_2: Math.SQRT1_2, SQRT2: Math.SQRT2 };`,
  },
  {
    name: "math: distance matrix for points",
    code: `const pts = { A: [0, 0], B: [3, 4], C: [-1, 7.5], D: [10, -2] } as Record<string, [number, number]>;
const names = Object.keys(pts);
return names.map(a => names.map(b => Math.round(Math.hypot(pts[a][0] - pts[b][0], pts[a][1] - pts[b][1]) * 1000) / 1000));`,
  },
  {
    name: "math: growth factors with ** for a rate table",
    code: `const rates = [0.011, 0.0235, 0.037, 0.049, 0.0625, 0.081];
return rates.map((r) => ({ rate: r, factors: [1, 5, 10, 30].map((years) => (1 + r) ** years) }));`,
  },
  {
    name: "math: compounding in a loop with **=",
    code: `let factor = 1.0007;
const steps: number[] = [];
for (let i = 0; i < 6; i++) { factor **= 1.5; steps.push(factor); }
return steps;`,
  },
  {
    name: "math: token amounts with BigInt **",
    code: `const decimals = 18n;
const unit = 10n ** decimals;
const wei = 1234n * unit + 5n * 10n ** 15n;
return { unit: unit.toString(), wei: wei.toString(), tower: 2 ** 3 ** 2 };`,
  },
  {
    name: "math: standard deviation with ** 0.5",
    code: `const xs = [12.5, 14.25, 9.75, 18.125, 11.0625, 15.5];
const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
const variance = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1);
return { mean, sd: variance ** 0.5, cv: (variance ** 0.5) / mean };`,
  },
] satisfies Snippet[];
