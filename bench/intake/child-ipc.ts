/**
 * What both bench servers (platform.child.ts, baseline.child.ts) share: the IPC protocol with the
 * orchestrator, the bot-check call over node:http, and counting the answers of POST /api/estimate at
 * the HTTP layer.
 *
 * Answers are counted where the status line is written (res.writeHead, which Node also calls for an
 * implicit head), so a request that was still in flight when wrk stopped and closed its socket is
 * counted too when the server answers it: its row is committed whether or not wrk read the answer.
 */
import { writeFileSync } from 'node:fs';
import { type Agent, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import { Session } from 'node:inspector/promises';

export type ChildCommand =
  | { cmd: 'stats' | 'checkpoint' | 'close' | 'profile-start'; id: number }
  /** Mints `n` bot-check tokens (action estimate, hostname localhost) and writes them to `file`, one a line. */
  | { cmd: 'mint'; id: number; n: number; file: string }
  /** Stops the CPU profile started by profile-start and writes it (.cpuprofile) to `file`. */
  | { cmd: 'profile-stop'; id: number; file: string };

/**
 * Tokens each server's local bot-check stand-in keeps for a run. Sized for the fastest machine in
 * sight (the rounds mint 3x the measured rate x duration, capped here): at 10 000 a PostgreSQL run
 * at ~3 000 req/s ran out within a round and measured cheap 400s.
 */
export const BENCH_TOKEN_CAPACITY = 400_000;

/**
 * Timeout of each server's bot-check call to its own stand-in. On an overloaded machine (load average
 * 20-30 on 2 cores, seen here) that self-call waits behind the server's own queue for seconds; the
 * production 3 s would turn the wait into failed requests, which is not what this bench measures.
 */
export const BENCH_VERIFY_TIMEOUT_MS = 60_000;

/** POSTs a form (the bot-check call) over node:http with `agent` and resolves to the answer's body. */
export function postForm(agent: Agent, url: string, body: string, timeoutMessage: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        timeout: BENCH_VERIFY_TIMEOUT_MS,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve(text));
      },
    );
    req.on('timeout', () => req.destroy(new Error(timeoutMessage)));
    req.on('error', reject);
    req.end(body);
  });
}

export interface ChildStats {
  /** Rows in `submissions` and `outbox`. */
  submissions: number;
  outbox: number;
  /** Answers written for POST /api/estimate, by class. */
  answered2xx: number;
  answeredOther: number;
  /** Answers by status code. */
  codes: Record<string, number>;
  /** process.cpuUsage() of the server process, user + system, in microseconds. */
  cpuUs: number;
}

export type ChildMessage =
  | { type: 'ready'; url: string; engine: string }
  | { type: 'reply'; id: number; ok: true; stats?: ChildStats }
  | { type: 'reply'; id: number; ok: false; error: string };

export interface AnswerCounter {
  answered2xx: number;
  answeredOther: number;
  codes: Record<string, number>;
}

/** Counts the status codes written for POST {path}, on any node:http server (Fastify's included). */
export function countAnswers(server: Server, path = '/api/estimate'): AnswerCounter {
  const c: AnswerCounter = { answered2xx: 0, answeredOther: 0, codes: {} };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || req.url !== path) return;
    const writeHead = res.writeHead;
    let counted = false;
    res.writeHead = function (this: ServerResponse, code: number, ...rest: unknown[]) {
      if (!counted) {
        counted = true;
        if (code >= 200 && code < 300) c.answered2xx++;
        else c.answeredOther++;
        c.codes[code] = (c.codes[code] ?? 0) + 1;
      }
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, [code, ...rest]);
    } as ServerResponse['writeHead'];
  });
  return c;
}

/** Serves the orchestrator's commands until `close`. */
export function serveCommands(h: {
  query: (sql: string) => Promise<{ rows: Record<string, unknown>[] }>;
  /** One token from the server's own POST /local-captcha/token route (in-process). */
  mint: () => Promise<string>;
  counter: AnswerCounter;
  close: () => Promise<void>;
}): void {
  const send = (m: ChildMessage) => process.send?.(m);
  let profiler: Session | undefined;
  process.on('message', (raw: unknown) => {
    const m = raw as ChildCommand;
    void (async () => {
      try {
        if (m.cmd === 'stats') {
          const r = await h.query(
            'SELECT (SELECT count(*) FROM submissions)::int AS s, (SELECT count(*) FROM outbox)::int AS o',
          );
          const u = process.cpuUsage();
          send({
            type: 'reply',
            id: m.id,
            ok: true,
            stats: {
              submissions: Number(r.rows[0]?.['s']),
              outbox: Number(r.rows[0]?.['o']),
              answered2xx: h.counter.answered2xx,
              answeredOther: h.counter.answeredOther,
              codes: { ...h.counter.codes },
              cpuUs: u.user + u.system,
            },
          });
        } else if (m.cmd === 'mint') {
          const tokens: string[] = [];
          for (let i = 0; i < m.n; i += 64) {
            tokens.push(...(await Promise.all(Array.from({ length: Math.min(64, m.n - i) }, () => h.mint()))));
          }
          writeFileSync(m.file, tokens.join('\n') + '\n');
          send({ type: 'reply', id: m.id, ok: true });
        } else if (m.cmd === 'checkpoint') {
          await h.query('CHECKPOINT');
          send({ type: 'reply', id: m.id, ok: true });
        } else if (m.cmd === 'profile-start') {
          profiler = new Session();
          profiler.connect();
          await profiler.post('Profiler.enable');
          await profiler.post('Profiler.start');
          send({ type: 'reply', id: m.id, ok: true });
        } else if (m.cmd === 'profile-stop') {
          if (!profiler) throw new Error('no profile running');
          const { profile } = await profiler.post('Profiler.stop');
          profiler.disconnect();
          writeFileSync(m.file, JSON.stringify(profile));
          send({ type: 'reply', id: m.id, ok: true });
        } else if (m.cmd === 'close') {
          await h.close();
          send({ type: 'reply', id: m.id, ok: true });
          process.disconnect?.();
        }
      } catch (e) {
        send({ type: 'reply', id: m.id, ok: false, error: e instanceof Error ? e.message : String(e) });
      }
    })();
  });
  // The orchestrator went away (killed, crashed): do not linger.
  process.on('disconnect', () => setTimeout(() => process.exit(0), 2_000).unref());
}
