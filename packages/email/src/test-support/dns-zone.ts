/** A DNS server on loopback (dns2) answering TXT and CNAME from a zone the test edits. */
import dns2 from 'dns2';

export interface LocalDns {
  server: string;
  txt: Map<string, string[]>;
  cname: Map<string, string>;
  close(): Promise<void>;
}

export async function startLocalDns(): Promise<LocalDns> {
  const { Packet } = dns2;
  const txt = new Map<string, string[]>();
  const cname = new Map<string, string>();
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const q = request.questions[0];
      const name = q?.name.toLowerCase() ?? '';
      const base = { name: q?.name ?? '', class: Packet.CLASS.IN, ttl: 60 };
      if (q?.type === Packet.TYPE.TXT)
        for (const v of txt.get(name) ?? [])
          response.answers.push({ ...base, type: Packet.TYPE.TXT, data: v.match(/.{1,255}/g) ?? [] } as never);
      if (q?.type === Packet.TYPE.CNAME && cname.has(name))
        response.answers.push({ ...base, type: Packet.TYPE.CNAME, domain: cname.get(name)! } as never);
      // A lost UDP answer shows as the resolver's timeout in the test that asked.
      void send(response);
    },
  });
  const addrs = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return { server: `127.0.0.1:${addrs.udp!.port}`, txt, cname, close: () => server.close() };
}
