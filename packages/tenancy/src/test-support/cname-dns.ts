/**
 * Test support: a real DNS server on loopback (dns2, UDP) answering CNAME questions from a zone the
 * test edits. Names in `servfail` answer SERVFAIL; names in `silent` get no answer at all (the
 * resolver times out): the two ways a look "could not check".
 */
import dns2 from 'dns2';

export interface CnameDns {
  /** `127.0.0.1:<port>`, the value of DNS_SERVERS. */
  server: string;
  cname: Map<string, string>;
  servfail: Set<string>;
  silent: Set<string>;
  /** Questions received, lower-cased names (to show a check really asked). */
  asked: string[];
  close(): Promise<void>;
}

/** RFC 1035 RCODE 2 (dns2's typings lack Packet.RCODE). */
const SERVFAIL = 2;

export async function startCnameDns(): Promise<CnameDns> {
  const { Packet } = dns2;
  const cname = new Map<string, string>();
  const servfail = new Set<string>();
  const silent = new Set<string>();
  const asked: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const q = request.questions[0];
      const name = q?.name.toLowerCase() ?? '';
      asked.push(name);
      if (silent.has(name)) return;
      const response = Packet.createResponseFromRequest(request);
      if (servfail.has(name)) (response.header as { rcode: number }).rcode = SERVFAIL;
      else if (q?.type === Packet.TYPE.CNAME && cname.has(name))
        response.answers.push({
          name: q.name,
          type: Packet.TYPE.CNAME,
          class: Packet.CLASS.IN,
          ttl: 1,
          domain: cname.get(name)!,
        } as never);
      void send(response);
    },
  });
  const addrs = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return {
    server: `127.0.0.1:${addrs.udp!.port}`,
    cname,
    servfail,
    silent,
    asked,
    close: () => server.close(),
  };
}
