/**
 * Connect on the stand-in (docs.stripe.com/connect, /api/account_links): accounts the platform makes
 * start with charges disabled; an account link (single-use, 300 s) opens the onboarding page, whose
 * submission enables charges and payouts, names the business and announces `account.updated`.
 * A used or expired link sends the owner to its `refresh_url` to get a new one.
 */
import { invalid, missing, required } from './local-stripe.errors.js';
import { accountObject, newId, type Obj } from './local-stripe.objects.js';

type Emit = (type: string, object: Obj, account: string | null) => void;

interface Link {
  account: string;
  refreshUrl: string;
  returnUrl: string;
  expiresAt: number;
  used?: true;
}

export class LocalStripeConnect {
  readonly accounts = new Map<string, Obj>();
  private readonly links = new Map<string, Link>();

  constructor(
    private readonly base: () => string,
    private readonly now: () => Date,
    private readonly emit: Emit,
  ) {}

  private seconds = (): number => Math.floor(this.now().getTime() / 1000);

  createAccount(p: Obj): Obj {
    if (p['type'] !== undefined && !['express', 'standard', 'custom'].includes(String(p['type'])))
      throw invalid('type', `Invalid type: must be one of express, standard, or custom`);
    const a = accountObject(newId('acct_', 16), p, this.seconds());
    this.accounts.set(String(a['id']), a);
    return a;
  }

  account(id: string): Obj {
    const a = this.accounts.get(id);
    if (!a) throw missing('account', id, 'account');
    return a;
  }

  createAccountLink(p: Obj): Obj {
    for (const k of ['account', 'type', 'refresh_url', 'return_url']) if (!p[k]) throw required(k);
    const account = this.account(String(p['account']));
    if (!['account_onboarding', 'account_update'].includes(String(p['type'])))
      throw invalid('type', 'Invalid type: must be one of account_onboarding or account_update');
    const token = newId('', 32);
    const expiresAt = this.seconds() + 300;
    this.links.set(token, {
      account: String(account['id']),
      refreshUrl: String(p['refresh_url']),
      returnUrl: String(p['return_url']),
      expiresAt,
    });
    return {
      object: 'account_link',
      created: this.seconds(),
      expires_at: expiresAt,
      url: `${this.base()}/connect/setup/${token}`,
    };
  }

  /** An account link is single-use and lives 300 s; a used or expired one sends the owner to refresh_url. */
  accountLink(token: string): { ok: true; account: Obj; returnUrl: string } | { ok: false; refreshUrl: string | null } {
    const l = this.links.get(token);
    if (!l) return { ok: false, refreshUrl: null };
    if (l.used || l.expiresAt < this.seconds()) return { ok: false, refreshUrl: l.refreshUrl };
    return { ok: true, account: this.account(l.account), returnUrl: l.returnUrl };
  }

  completeOnboarding(token: string, businessName: string): string {
    const l = this.accountLink(token);
    if (!l.ok) throw invalid('token', 'This link has expired or was already used.');
    this.links.get(token)!.used = true;
    Object.assign(l.account, { charges_enabled: true, payouts_enabled: true, details_submitted: true });
    (l.account['business_profile'] as Obj)['name'] = businessName || null;
    this.emit('account.updated', l.account, String(l.account['id']));
    return l.returnUrl;
  }
}
