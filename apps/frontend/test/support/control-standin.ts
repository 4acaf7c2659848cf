/**
 * A small control plane honouring the contract's /auth and /jobs shapes, for the field app's tests
 * until the real /jobs lands: bearer tokens, Idempotency-Key (same key → same stored answer, applied
 * once), If-Match on the job's version (409 JOB_CONFLICT with `current`), presigned PUT uploads
 * (expiring, signed) and attachments. It records what was applied so tests can count.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

import { crmAnswer, type StandinLead } from './crm-standin.js';
import { createJob } from './job-create-standin.js';
import { SalesStandin } from './sales-standin.js';
import type { StandinJob } from './standin-job.js';

export type { StandinJob };

const STAGES: Record<string, string> = {
  new: 'New',
  travel: 'Travelling',
  on_site: 'On site',
  done: 'Done',
  scheduled: 'Scheduled',
};

export class ControlStandin {
  readonly jobs = new Map<string, StandinJob>();
  readonly objects = new Map<string, { bytes: number; puts: number; type: string }>();
  readonly applied: { job: string; what: string }[] = [];
  /** Helpdesk tickets filed through POST /helpdesk/tickets (public intake), once per Idempotency-Key. */
  readonly tickets: { id: string; tenant?: string; body: Record<string, unknown> }[] = [];
  /** The `tenant` each sign-in named (the page's tenant slug). */
  readonly loginTenants: (string | undefined)[] = [];
  /** Routes a test adds (answer, return true); tried before the bearer check. */
  readonly routes: ((
    req: IncomingMessage,
    path: string,
    body: Record<string, unknown>,
    res: ServerResponse,
  ) => boolean)[] = [];
  private readonly answers = new Map<string, { status: number; body: unknown }>();
  private readonly tokens = new Map<string, { userId: string }>();
  private clock = 0;
  server!: Server;
  url = '';
  /** Every request, for tests that check what reached the control plane. */
  readonly log: { method: string; path: string; idem?: string; tenant?: string }[] = [];

  constructor(
    readonly user = {
      id: 'u-tech',
      email: 'tech@acme.test',
      name: 'Tess Tech',
      role: 'technician',
      password: 'correct horse 1',
    },
  ) {}

  addJob(partial: Partial<StandinJob> & { id: string }): StandinJob {
    const day = new Date().toISOString().slice(0, 10);
    const job: StandinJob = {
      name: `FSM/${partial.id}`,
      customer: { id: 'p1', name: 'Carla Customer', phone: '+1 303 555 0199', email: 'carla@example.com' },
      address: {
        street: '12 Elm St',
        city: 'Denver',
        zip: '80211',
        state: 'CO',
        maps_url: 'https://maps.example/?q=12+Elm',
      },
      scheduled_start: `${day}T15:00:00Z`,
      scheduled_end: `${day}T17:00:00Z`,
      stage: { id: 2, name: 'Scheduled', key: 'scheduled' },
      technician: { id: this.user.id, name: this.user.name },
      route_order: 1,
      windows: [
        { room: 'Kitchen', product: 'Roller shade', width_in: 36.375, drop_in: 48, mount: 'inside', colour: 'Linen' },
      ],
      notes: [],
      checklist: [{ id: 'c1', label: 'Brackets level', done: false }],
      photos: [],
      signature: null,
      resolution: null,
      sale_order_id: null,
      version: this.nextVersion(),
      ...partial,
    };
    this.jobs.set(job.id, job);
    return job;
  }

  /** The office edits the job (a reschedule): its version moves on. */
  officeEdit(id: string, patch: Partial<StandinJob>): void {
    const j = this.jobs.get(id)!;
    Object.assign(j, patch, { version: this.nextVersion() });
  }

  private nextVersion(): string {
    return new Date(Date.UTC(2026, 0, 1) + ++this.clock * 1000).toISOString();
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.handle(req, res, Buffer.concat(chunks)));
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }

  send(res: ServerResponse, status: number, body?: unknown, type = 'application/json'): void {
    res.writeHead(status, { 'content-type': status >= 400 ? 'application/problem+json' : type });
    res.end(body === undefined ? '' : JSON.stringify(body));
  }

  problem(res: ServerResponse, status: number, code: string, extra: object = {}): void {
    this.send(res, status, {
      type: `urn:platform:problem:${code.toLowerCase()}`,
      status,
      code,
      detail: code,
      ...extra,
    });
  }

  private handle(req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
    const url = new URL(req.url!, 'http://x');
    const path = url.pathname;
    const idem = req.headers['idempotency-key'] as string | undefined;
    this.log.push({ method: req.method!, path, idem, tenant: req.headers['x-tenant-id'] as string | undefined });
    if (req.method === 'PUT' && path.startsWith('/storage/')) return this.put(req, res, path, url, raw);
    const body =
      raw.length && req.headers['content-type']?.includes('json')
        ? (JSON.parse(raw.toString()) as Record<string, unknown>)
        : {};
    if (path === '/auth/login' && req.method === 'POST') {
      this.loginTenants.push(body.tenant as string | undefined);
      if (body.email !== this.user.email || body.password !== this.user.password)
        return this.problem(res, 401, 'LOGIN_FAILED');
      return this.send(res, 200, this.session());
    }
    if (path === '/auth/refresh' && req.method === 'POST') {
      if (!this.tokens.has(`r:${String(body.refresh_token)}`)) return this.problem(res, 401, 'TOKEN_INVALID');
      return this.send(res, 200, this.session());
    }
    if (path === '/helpdesk/tickets' && req.method === 'POST') {
      const replay = idem ? this.answers.get(`ticket:${idem}`) : undefined;
      if (replay) return this.send(res, replay.status, replay.body);
      if (body.tenant_id !== req.headers['x-tenant-id']) return this.problem(res, 422, 'VALIDATION_FAILED');
      const id = randomUUID();
      this.tickets.push({ id, tenant: req.headers['x-tenant-id'] as string, body });
      if (idem) this.answers.set(`ticket:${idem}`, { status: 201, body: { id } });
      return this.send(res, 201, { id });
    }
    if (this.routes.some((r) => r(req, path, body, res))) return;
    const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    if (!auth || !this.tokens.has(`a:${auth[1]}`)) return this.problem(res, 401, 'AUTH_REQUIRED');
    if (path === '/jobs' && req.method === 'GET') {
      const date = url.searchParams.get('date');
      const items = [...this.jobs.values()]
        .filter((j) => this.user.role !== 'technician' || j.technician?.id === this.user.id)
        .filter((j) => !date || j.scheduled_start?.startsWith(date))
        .filter((j) => !url.searchParams.get('stage') || j.stage.key === url.searchParams.get('stage'));
      return this.send(res, 200, { items, page: 1, page_size: 100, total: items.length });
    }
    if (/^\/api\/tenants\/[^/]+\/technicians$/.test(path) && req.method === 'GET') {
      if (this.user.role === 'technician') return this.problem(res, 403, 'ROLE_FORBIDDEN');
      return this.send(res, 200, { items: this.technicians });
    }
    if (path.startsWith('/sales/')) return this.salesRoute(req.method!, path, body, idem, res);
    if (path === '/jobs' && req.method === 'POST') return this.createJob(body, idem, res);
    const m =
      /^\/jobs\/([^/]+)(?:\/(notes|stage|complete|uploads|attachments|checklist|assign|schedule)(?:\/([^/]+))?)?$/.exec(
        path,
      );
    const job = m ? this.jobs.get(m[1]!) : undefined;
    if (path.startsWith('/crm/')) return this.crm(req.method!, path, body, res);
    if (!m || !job || (this.user.role === 'technician' && job.technician?.id !== this.user.id))
      return this.problem(res, 404, 'NOT_FOUND');
    if (!m[2] && req.method === 'GET') return this.send(res, 200, job);
    const replayKey = idem ? `${job.id}:${m[2]}:${idem}` : undefined;
    if (replayKey && this.answers.has(replayKey)) {
      const a = this.answers.get(replayKey)!;
      return this.send(res, a.status, a.body);
    }
    const ifMatch = req.headers['if-match'];
    if (typeof ifMatch === 'string' && ifMatch !== job.version)
      return this.problem(res, 409, 'JOB_CONFLICT', { current: job });
    const answer = this.apply(job, m[2]!, m[3], body);
    if (answer.status >= 400) return this.problem(res, answer.status, String((answer.body as { code: string }).code));
    if (replayKey) this.answers.set(replayKey, answer);
    this.send(res, answer.status, answer.body);
  }

  private apply(
    job: StandinJob,
    what: string,
    sub: string | undefined,
    body: Record<string, unknown>,
  ): { status: number; body: unknown } {
    const at = new Date().toISOString();
    if (what === 'uploads') {
      const key = `tenants/acme/jobs/${job.id}/${String(body.kind)}-${randomUUID()}`;
      const expires = Date.now() + 10 * 60_000;
      const sig = createHash('sha256').update(`${key}:${expires}`).digest('hex').slice(0, 16);
      return {
        status: 201,
        body: {
          key,
          upload_url: `${this.url}/storage/${key}?expires=${expires}&sig=${sig}`,
          expires_at: new Date(expires).toISOString(),
        },
      };
    }
    this.applied.push({ job: job.id, what });
    if (what === 'notes')
      job.notes.push({
        id: randomUUID(),
        body: String(body.body),
        author: { id: this.user.id, name: this.user.name },
        at,
      });
    if (what === 'stage')
      job.stage = { id: 3, key: String(body.stage), name: STAGES[String(body.stage)] ?? String(body.stage) };
    if (what === 'complete') {
      job.stage = { id: 5, key: 'done', name: 'Done' };
      job.resolution = String(body.resolution);
    }
    if (what === 'assign') job.technician = this.technicians.find((t) => t.id === body.technician_id) ?? null;
    if (what === 'schedule') {
      if (job.stage.key === 'new') job.stage = { id: 2, key: 'scheduled', name: 'Scheduled' };
      job.scheduled_start = String(body.scheduled_start);
      job.scheduled_end = String(body.scheduled_end);
    }
    if (what === 'checklist')
      job.checklist = job.checklist.map((c) => (c.id === sub ? { ...c, done: Boolean(body.done) } : c));
    if (what === 'attachments') {
      if (!this.objects.has(String(body.key))) return { status: 422, body: { code: 'VALIDATION_FAILED' } };
      if (body.kind === 'signature') job.signature = { key: String(body.key), at };
      else job.photos.push({ key: String(body.key), kind: String(body.kind), at });
    }
    job.version = this.nextVersion();
    return { status: what === 'notes' || what === 'attachments' ? 201 : 200, body: job };
  }

  /** The contract's /crm (office roles): see crm-standin.ts. */
  readonly leads: StandinLead[] = [];
  readonly technicians: { id: string; name: string }[] = [];

  private crm(method: string, path: string, body: Record<string, unknown>, res: ServerResponse): void {
    if (this.user.role === 'technician') return this.problem(res, 403, 'ROLE_FORBIDDEN');
    const a = crmAnswer(this.leads, method, path, body);
    if (a.status >= 400) return this.problem(res, a.status, String((a.body as { code: string }).code));
    this.send(res, a.status, a.body);
  }

  /** The contract's /sales (office roles): see sales-standin.ts. */
  readonly sales = new SalesStandin();

  private salesRoute(
    method: string,
    path: string,
    body: Record<string, unknown>,
    idem: string | undefined,
    res: ServerResponse,
  ): void {
    if (this.user.role === 'technician') return this.problem(res, 403, 'ROLE_FORBIDDEN');
    const a = this.sales.answer(method, path, body, idem);
    if (a.status < 400) return this.send(res, a.status, a.body);
    const { code, ...rest } = a.body as { code: string };
    this.problem(res, a.status, code, rest);
  }

  /** POST /jobs (office roles): the job is stored and its answer replayed for the same Idempotency-Key. */
  private createJob(body: Record<string, unknown>, idem: string | undefined, res: ServerResponse): void {
    if (this.user.role === 'technician') return this.problem(res, 403, 'ROLE_FORBIDDEN');
    const replay = idem ? this.answers.get(`create:${idem}`) : undefined;
    if (replay) return this.send(res, replay.status, replay.body);
    const made = createJob(
      body,
      {
        partner: (id) => this.sales.partner(id),
        hasOrder: (id) => this.sales.hasOrder(id),
        technicians: this.technicians,
      },
      this.nextVersion(),
    );
    if (made.issues)
      return this.problem(res, 422, 'VALIDATION_FAILED', {
        detail: 'The request has invalid fields.',
        errors: made.issues,
      });
    this.jobs.set(made.job.id, made.job);
    this.applied.push({ job: made.job.id, what: 'create' });
    if (idem) this.answers.set(`create:${idem}`, { status: 201, body: made.job });
    this.send(res, 201, made.job);
  }

  private put(req: IncomingMessage, res: ServerResponse, path: string, url: URL, raw: Buffer): void {
    const key = decodeURIComponent(path.slice('/storage/'.length));
    const expires = Number(url.searchParams.get('expires'));
    const sig = createHash('sha256').update(`${key}:${expires}`).digest('hex').slice(0, 16);
    if (sig !== url.searchParams.get('sig') || expires < Date.now()) return this.problem(res, 403, 'UPLOAD_EXPIRED');
    const prev = this.objects.get(key);
    this.objects.set(key, {
      bytes: raw.length,
      puts: (prev?.puts ?? 0) + 1,
      type: String(req.headers['content-type']),
    });
    res.writeHead(200, { etag: `"${createHash('md5').update(raw).digest('hex')}"` });
    res.end();
  }

  session() {
    const access = randomUUID();
    const refresh = randomUUID();
    this.tokens.set(`a:${access}`, { userId: this.user.id });
    this.tokens.set(`r:${refresh}`, { userId: this.user.id });
    const { password: _p, ...user } = this.user;
    return {
      access_token: access,
      refresh_token: refresh,
      expires_in: 900,
      token_type: 'Bearer',
      tenant: { id: 't', slug: 'acme', name: 'Acme' },
      user,
    };
  }
}
