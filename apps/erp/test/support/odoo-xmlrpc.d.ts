/** odoo-xmlrpc ships no types; the tests use its documented callback API. */
declare module 'odoo-xmlrpc' {
  type Callback<T> = (error: unknown, value: T) => void;
  export default class Odoo {
    constructor(config: { url: string; port?: number | string; db: string; username: string; password: string });
    connect(callback: Callback<number>): void;
    execute_kw(model: string, method: string, params: unknown[], callback: Callback<unknown>): void;
  }
}
