/**
 * Exceptions as Odoo 15's XML-RPC faults (odoo/service/wsgi_server.py):
 * `/xmlrpc/2/<service>` answers integer codes: 1 application error (faultString = the traceback),
 * 2 UserError and its subclasses (ValidationError, MissingError, RedirectWarning), 3 AccessDenied,
 * 4 AccessError, with `str(e)` as faultString. The legacy `/xmlrpc/<service>` answers string codes
 * ("warning -- UserError\n\n<message>", "AccessDenied", ...).
 */
import { OdooError } from '@platform/erp-embedded';

import { encodeFault } from './xmlrpc.codec.js';

const USER_ERRORS = new Set([
  'odoo.exceptions.UserError',
  'odoo.exceptions.ValidationError',
  'odoo.exceptions.MissingError',
  'odoo.exceptions.RedirectWarning',
]);

/** Python prints builtins without their module: `ValueError: ...`, but `odoo.exceptions.X: ...`. */
const pyName = (name: string) => name.replace(/^builtins\./, '');

export function traceback(name: string, message: string): string {
  return `Traceback (most recent call last):\n  File "embedded-erp", in dispatch_rpc\n${pyName(name)}: ${message}\n`;
}

function parts(e: unknown): { name: string; message: string } {
  if (e instanceof OdooError) return { name: e.odooName, message: e.message };
  return { name: 'builtins.Exception', message: 'Internal Server Error' };
}

export function faultFor(e: unknown): { faultCode: number; faultString: string } {
  const { name, message } = parts(e);
  if (name === 'odoo.exceptions.AccessError') return { faultCode: 4, faultString: message };
  if (name === 'odoo.exceptions.AccessDenied') return { faultCode: 3, faultString: message };
  if (USER_ERRORS.has(name)) return { faultCode: 2, faultString: message };
  return { faultCode: 1, faultString: traceback(name, message) };
}

export function legacyFaultFor(e: unknown): { faultCode: string; faultString: string } {
  const { name, message } = parts(e);
  if (name === 'odoo.exceptions.RedirectWarning')
    return { faultCode: `warning -- Warning\n\n${message}`, faultString: '' };
  if (name === 'odoo.exceptions.MissingError')
    return { faultCode: `warning -- MissingError\n\n${message}`, faultString: '' };
  if (name === 'odoo.exceptions.AccessError')
    return { faultCode: `warning -- AccessError\n\n${message}`, faultString: '' };
  if (name === 'odoo.exceptions.AccessDenied') return { faultCode: 'AccessDenied', faultString: message };
  if (USER_ERRORS.has(name)) return { faultCode: `warning -- UserError\n\n${message}`, faultString: '' };
  return { faultCode: message, faultString: traceback(name, message) };
}

export function faultXml(e: unknown, legacy: boolean): string {
  const f = legacy ? legacyFaultFor(e) : faultFor(e);
  return encodeFault(f.faultCode, f.faultString);
}
