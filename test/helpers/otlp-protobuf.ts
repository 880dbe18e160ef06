// Reads an OTLP ExportTraceServiceRequest in protobuf (opentelemetry-proto trace.proto) back into the
// fields the tests compare with the JSON export: trace and span ids (hex), parent, name, kind. A
// reader of the wire format only; it follows the field numbers of the .proto, nothing of ours.

type Field = { no: number; wire: number; value: bigint | Uint8Array };

function fields(bytes: Uint8Array): Field[] {
  const out: Field[] = [];
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const b = bytes[at++];
      if (b === undefined) throw new Error("protobuf: truncated varint");
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
    }
  };
  const take = (n: number): Uint8Array => {
    if (at + n > bytes.length) throw new Error("protobuf: truncated field");
    const slice = bytes.subarray(at, at + n);
    at += n;
    return slice;
  };
  while (at < bytes.length) {
    const key = Number(varint());
    const no = key >>> 3;
    const wire = key & 7;
    if (wire === 0) out.push({ no, wire, value: varint() });
    else if (wire === 1) out.push({ no, wire, value: take(8) });
    else if (wire === 2) out.push({ no, wire, value: take(Number(varint())) });
    else if (wire === 5) out.push({ no, wire, value: take(4) });
    else throw new Error(`protobuf: wire type ${wire} of field ${no}`);
  }
  return out;
}

const bytesOf = (list: Field[], no: number): Uint8Array[] =>
  list.filter((f) => f.no === no && f.value instanceof Uint8Array).map((f) => f.value as Uint8Array);
const hex = (b: Uint8Array | undefined): string | undefined =>
  b && b.length > 0 ? Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("") : undefined;

export type DecodedSpan = {
  traceId?: string;
  spanId?: string;
  parentSpanId?: string;
  name: string;
  kind: number;
};

/** ExportTraceServiceRequest.resource_spans(1).scope_spans(2).spans(2) → span fields 1, 2, 4, 5, 6. */
export function decodeTraceRequest(body: Uint8Array): DecodedSpan[] {
  return bytesOf(fields(body), 1).flatMap((resource) =>
    bytesOf(fields(resource), 2).flatMap((scope) =>
      bytesOf(fields(scope), 2).map((span) => {
        const f = fields(span);
        const kind = f.find((x) => x.no === 6)?.value;
        return {
          traceId: hex(bytesOf(f, 1)[0]),
          spanId: hex(bytesOf(f, 2)[0]),
          parentSpanId: hex(bytesOf(f, 4)[0]),
          name: new TextDecoder().decode(bytesOf(f, 5)[0]),
          kind: typeof kind === "bigint" ? Number(kind) : 0,
        };
      }),
    ),
  );
}
