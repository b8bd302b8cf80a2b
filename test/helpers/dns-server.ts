import dns2 from 'dns2';

/**
 * A real DNS server on 127.0.0.1 (UDP, random port) answering from an in-memory zone, for the
 * domain-check tests. Names that appear nowhere in the zone get NXDOMAIN; a name that has some
 * record but not the asked type gets NOERROR with no answer (NODATA). A TXT question on a name
 * that only has a CNAME is answered with the CNAME alone (as an authoritative server would).
 */
export interface Zone {
  /** Records per name; a record given as an array is one TXT of several character-strings. */
  txt?: Record<string, (string | string[])[]>;
  mx?: Record<string, { exchange: string; priority: number }[]>;
  cname?: Record<string, string>;
  /** Names that exist without records of the asked types (NODATA). */
  exists?: string[];
  /** Names answered only after this many milliseconds. */
  delayMs?: Record<string, number>;
  /** Names never answered (the query times out). */
  silent?: string[];
  /** Names answered SERVFAIL. */
  servfail?: string[];
}

export interface DnsTestServer {
  /** `127.0.0.1:<port>`, as DNS_SERVERS takes it. */
  address: string;
  zone: Zone;
  /** Every question received, as `TYPE name`. */
  queries: string[];
  close(): Promise<void>;
}

const { Packet } = dns2;
type Request = dns2.Packet;
type Send = (response: dns2.Packet) => Promise<Buffer>;

/** The encoder needs only the record fields; `toBuffer` is for decoded records. */
const rr = (r: Omit<dns2.Packet.Resource, 'toBuffer'>): dns2.Packet.Resource => r as dns2.Packet.Resource;

function known(zone: Zone, name: string): boolean {
  return name in (zone.txt ?? {}) || name in (zone.mx ?? {}) || name in (zone.cname ?? {}) || (zone.exists ?? []).includes(name);
}

export async function startDnsServer(zone: Zone): Promise<DnsTestServer> {
  const queries: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const handle = (request: Request, send: Send): void => {
    const response = Packet.createResponseFromRequest(request);
    const q = request.questions[0];
    if (q === undefined) return;
    const name = q.name.toLowerCase();
    const type = q.type;
    queries.push(`${type === Packet.TYPE.TXT ? 'TXT' : type === Packet.TYPE.MX ? 'MX' : type === Packet.TYPE.CNAME ? 'CNAME' : String(type)} ${name}`);
    if ((zone.silent ?? []).includes(name)) return;
    if ((zone.servfail ?? []).includes(name)) {
      response.header.rcode = 2;
      void send(response);
      return;
    }
    const base = { name: q.name, class: Packet.CLASS.IN, ttl: 300 };
    const cname = zone.cname?.[name];
    if (type === Packet.TYPE.TXT && zone.txt?.[name]) {
      for (const data of zone.txt[name]) response.answers.push(rr({ ...base, type: Packet.TYPE.TXT, data }));
    } else if (type === Packet.TYPE.MX && zone.mx?.[name]) {
      for (const r of zone.mx[name]) response.answers.push(rr({ ...base, type: Packet.TYPE.MX, exchange: r.exchange, priority: r.priority }));
    } else if (cname !== undefined && (type === Packet.TYPE.CNAME || type === Packet.TYPE.TXT)) {
      response.answers.push(rr({ ...base, type: Packet.TYPE.CNAME, domain: cname }));
    } else if (!known(zone, name)) {
      response.header.rcode = 3; // NXDOMAIN
    }
    const delay = zone.delayMs?.[name];
    if (delay === undefined) {
      void send(response);
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      void send(response);
    }, delay);
    timers.add(timer);
  };
  const server = dns2.createServer({ udp: true, handle });
  server.on('requestError', () => undefined);
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = addresses.udp?.port ?? 0;
  return {
    address: `127.0.0.1:${port}`,
    zone,
    queries,
    async close() {
      for (const t of timers) clearTimeout(t);
      await server.close();
    },
  };
}
