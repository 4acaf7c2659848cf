/** /office/quotes: the quotes made through the platform, newest first (GET /sales/quotes). */
import { call } from '../field/api.js';
import type { OfficePage } from './office-page.js';
import { quotesListHtml, type QuoteSummary } from './quote.view.js';

export const quotesListPage: OfficePage = {
  async show(app, msg = '') {
    const list = await call<{ items: QuoteSummary[] }>('/sales/quotes?page_size=50');
    app.innerHTML = quotesListHtml(list.items, msg);
  },
};
