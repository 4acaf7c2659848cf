/**
 * The office views, one bundle: the leads inbox, the quote builder and quotes, the dispatch board and
 * the owners' Settings (company, developers, domains, team, plan, price grids), all through the control plane. Signed in through the same control-plane
 * session as the field app. Each screen is an OfficePage; this module signs in, picks the page by
 * path and hands it the events of its controls.
 */
import { adoptHandoff, ApiError, login, SignedOutError } from '../field/api.js';
import { clearSession, getSession } from '../field/store.js';
import { loginView } from '../field/views.js';
import { $ } from '../shared/dom.js';
import { auditPage } from './audit.page.js';
import { branchesPage } from './branches.page.js';
import { companyPage } from './company.page.js';
import { customerPage, customersPage } from './customers.page.js';
import { developersPage } from './developers.page.js';
import { dispatchPage } from './dispatch.page.js';
import { domainsPage } from './domains.page.js';
import { integrationsPage } from './integrations.page.js';
import { invoicePage, invoicesPage } from './invoices.page.js';
import { jobPage } from './job.page.js';
import { leadsPage } from './leads.page.js';
import { messagesSettingsPage } from './messages-settings.page.js';
import { explain, say } from './office-common.js';
import { showOfficeHeader } from './office-header.js';
import type { OfficePage } from './office-page.js';
import { paymentsPage } from './payments.page.js';
import { planPage } from './plan.page.js';
import { priceGridsPage } from './price-grids.page.js';
import { purchaseOrdersPage } from './purchase-orders.page.js';
import { quotePage } from './quote.page.js';
import { quoteBuilderPage } from './quote-builder.page.js';
import { quotesListPage } from './quotes-list.page.js';
import { reportsPage } from './reports.page.js';
import { searchPage } from './search.page.js';
import { planRefusal } from './settings-common.js';
import { showSetupChecklist } from './setup-checklist.js';
import { stockPage } from './stock.page.js';
import { suppliersPage } from './suppliers.page.js';
import { teamPage } from './team.page.js';
import { showVerifyBanner } from './verify-banner.js';
import { websitePage } from './website.page.js';

const app = $('#app')!;
const tenantSlug = document.body.dataset.tenantSlug ?? '';

function pageFor(path: string): OfficePage {
  if (path === '/office/dispatch') return dispatchPage;
  if (path === '/office/customers') return customersPage;
  if (path === '/office/search') return searchPage;
  if (path === '/office/reports') return reportsPage;
  if (path.startsWith('/office/customers/')) return customerPage;
  if (path === '/office/quotes') return quotesListPage;
  if (path === '/office/quotes/new') return quoteBuilderPage;
  if (path.startsWith('/office/quotes/')) return quotePage;
  if (path.startsWith('/office/jobs/')) return jobPage;
  if (path === '/office/invoices') return invoicesPage;
  if (path.startsWith('/office/invoices/')) return invoicePage;
  if (path === '/office/purchase-orders') return purchaseOrdersPage;
  if (path === '/office/stock') return stockPage;
  if (path === '/office/settings/company') return companyPage;
  if (path === '/office/settings/branches') return branchesPage;
  if (path === '/office/settings/developers') return developersPage;
  if (path === '/office/settings/domains') return domainsPage;
  if (path === '/office/settings/integrations') return integrationsPage;
  if (path === '/office/settings/website') return websitePage;
  if (path === '/office/settings/payments') return paymentsPage;
  if (path === '/office/settings/messages') return messagesSettingsPage;
  if (path === '/office/settings/team') return teamPage;
  if (path === '/office/settings/plan') return planPage;
  if (path === '/office/settings/price-grids') return priceGridsPage;
  if (path === '/office/settings/suppliers') return suppliersPage;
  if (path === '/office/settings/audit') return auditPage;
  return leadsPage;
}
const page = pageFor(location.pathname);

/** What went wrong in a page: signed out → the sign-in form; an office-only view → said so; else the message. */
async function failed(e: unknown, drawing: boolean): Promise<void> {
  if (e instanceof SignedOutError) return render();
  if (e instanceof ApiError && e.status === 403 && !planRefusal(e)) {
    app.innerHTML = location.pathname.startsWith('/office/settings/')
      ? '<h1>Owners and admins only</h1><p>The company settings are for its owners and admins.</p>'
      : '<h1>Office only</h1><p>These views are for office staff and owners.</p><button class="btn secondary" id="logout" type="button">Sign out</button>';
    return;
  }
  if (drawing || !$('#office-msg')) app.innerHTML = `<p id="office-msg" class="err" role="alert"></p>`;
  say(explain(e), 'office-msg', 'err');
}

async function signOut(): Promise<void> {
  await clearSession();
  await render();
  $<HTMLInputElement>('#email')?.focus();
}

async function render(msg = ''): Promise<void> {
  const session = await getSession();
  showOfficeHeader(session, () => void signOut());
  void showVerifyBanner(session);
  void showSetupChecklist(session);
  // Settings are for owners and admins; the control plane refuses others anyway.
  const settings = document.getElementById('nav-settings');
  if (settings) settings.hidden = !session || !['owner', 'admin'].includes(session.user.role);
  if (!session) {
    app.innerHTML = loginView();
    return;
  }
  try {
    await page.show(app, msg);
  } catch (e) {
    await failed(e, true);
  }
}

const run = (work: Promise<void> | void) => Promise.resolve(work).catch((e: unknown) => failed(e, false));

app.addEventListener('submit', async (e) => {
  e.preventDefault();
  const form = e.target as HTMLFormElement;
  if (form.id !== 'login') return run(page.submit?.(form, app));
  try {
    await login($<HTMLInputElement>('#email')!.value.trim(), $<HTMLInputElement>('#password')!.value, tenantSlug);
    await render();
  } catch (err) {
    $('#login-msg')!.textContent =
      err instanceof ApiError && err.status === 401 ? 'Wrong email or password.' : explain(err);
  }
});

app.addEventListener('input', (e) => page.input?.(e.target as HTMLInputElement, app));
app.addEventListener('change', (e) => run(page.change?.(e.target as HTMLInputElement, app)));
app.addEventListener('click', async (e) => {
  const b = (e.target as HTMLElement).closest<HTMLButtonElement>('button');
  if (!b || b.type === 'submit') return;
  if (b.id === 'logout') {
    await clearSession();
    return render();
  }
  await run(page.click?.(b, app));
});

void adoptHandoff().then(() => render());
