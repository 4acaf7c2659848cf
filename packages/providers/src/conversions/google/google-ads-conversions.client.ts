/**
 * Google Ads offline click conversions adapter:
 * `POST {apiUrl}/{apiVersion}/customers/{customerId}:uploadClickConversions` with
 * `{ conversions: [...], partialFailure: true }` (REST JSON, camelCase) and the headers
 * `authorization: Bearer …`, `developer-token`, `login-customer-id` (manager account, optional).
 *
 * - Partial failure mode is required by Google for conversion uploads: a bad row (unknown click id)
 *   comes back in `partialFailureError`, located by its index in `conversions`, while the others are
 *   accepted. We map those rows to `rejected` (not thrown: retrying would send the same row again).
 * - A whole-request failure (auth, quota, bad request) throws `OfflineConversionsError`, retryable
 *   on 429/5xx. Messages never contain the access or developer token.
 */
import { providerFetch } from '../../http/provider-http.js';
import {
  type OfflineClickConversion,
  OfflineConversionsError,
  type OfflineConversionsResult,
  type OfflineConversionsSender,
} from '../offline-conversions.port.js';
import { googleAdsFailureRows, googleAdsRequestError } from './google-ads-failure.js';

export const GOOGLE_ADS_API_URL = 'https://googleads.googleapis.com';
export const GOOGLE_ADS_API_VERSION = 'v21';
export const GOOGLE_ADS_MAX_CONVERSIONS_PER_REQUEST = 2000;

export interface GoogleAdsConversionsOptions {
  apiUrl?: string;
  apiVersion?: string;
  /** The advertiser's account, digits only (no dashes). */
  customerId: string;
  /** The manager account the credentials belong to, when it is not `customerId` itself. */
  loginCustomerId?: string;
  developerToken: string;
  /** An OAuth access token for the `adwords` scope (a function lets the caller refresh it). */
  accessToken: string | (() => Promise<string>);
  /** Numeric id of the conversion action (Goals → Conversions) the sales are counted under. */
  conversionActionId: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** One conversion in Google's REST shape. */
export interface GoogleClickConversion {
  gclid?: string;
  gbraid?: string;
  wbraid?: string;
  conversionAction: string;
  conversionDateTime: string;
  conversionValue: number;
  currencyCode: string;
  orderId: string;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** Google's `yyyy-mm-dd hh:mm:ss+hh:mm`, written in UTC so the offset is always `+00:00`. */
export function googleAdsDateTime(d: Date): string {
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}+00:00`
  );
}

/** Minor units → the major-unit amount Google takes, using the currency's own digits (JPY 0, USD 2). */
export function majorUnits(valueMinor: number, currency: string): number {
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return valueMinor / 10 ** digits;
}

export function toGoogleClickConversion(c: OfflineClickConversion, conversionAction: string): GoogleClickConversion {
  return {
    ...c.click,
    conversionAction,
    conversionDateTime: googleAdsDateTime(c.occurredAt),
    conversionValue: majorUnits(c.valueMinor, c.currency),
    currencyCode: c.currency,
    orderId: c.orderId,
  };
}

export function createGoogleAdsConversionsSender(opts: GoogleAdsConversionsOptions): OfflineConversionsSender {
  const apiUrl = (opts.apiUrl ?? GOOGLE_ADS_API_URL).replace(/\/+$/, '');
  const apiVersion = opts.apiVersion ?? GOOGLE_ADS_API_VERSION;
  const { customerId, loginCustomerId, developerToken, conversionActionId } = opts;
  if (!/^\d+$/.test(customerId)) throw new Error('Google Ads: customerId must be digits only');
  if (loginCustomerId !== undefined && !/^\d+$/.test(loginCustomerId))
    throw new Error('Google Ads: loginCustomerId must be digits only');
  if (!/^\d+$/.test(conversionActionId)) throw new Error('Google Ads: conversionActionId must be numeric');
  if (!developerToken) throw new Error('Google Ads: developerToken is required');
  const conversionAction = `customers/${customerId}/conversionActions/${conversionActionId}`;
  const endpoint = `${apiUrl}/${encodeURIComponent(apiVersion)}/customers/${customerId}:uploadClickConversions`;
  const token = typeof opts.accessToken === 'function' ? opts.accessToken : async () => opts.accessToken as string;

  async function post(batch: OfflineClickConversion[]): Promise<OfflineConversionsResult> {
    const accessToken = await token();
    const secrets = [accessToken, developerToken];
    const redact = (s: string): string => secrets.reduce((acc, t) => (t ? acc.split(t).join('[redacted]') : acc), s);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: `Bearer ${accessToken}`,
      'developer-token': developerToken,
    };
    if (loginCustomerId) headers['login-customer-id'] = loginCustomerId;
    const body = { conversions: batch.map((c) => toGoogleClickConversion(c, conversionAction)), partialFailure: true };
    const res = await providerFetch(
      endpoint,
      { method: 'POST', headers, body: JSON.stringify(body) },
      {
        label: 'Google Ads upload',
        timeoutMs: opts.timeoutMs ?? 10_000,
        causeInMessage: true,
        ...(opts.fetch ? { fetch: opts.fetch } : {}),
        error: (kind, message, status) =>
          new OfflineConversionsError(kind, redact(message), {
            retryable: true,
            ...(status === undefined ? {} : { status }),
          }),
      },
    );
    if (!res.ok) throw googleAdsRequestError(res.status, res.json, redact);
    if (!res.json || typeof res.json !== 'object')
      throw new OfflineConversionsError('format', `Google Ads: HTTP ${res.status} without a JSON body`, {
        retryable: true,
        status: res.status,
      });
    const failed = googleAdsFailureRows(res.json);
    const rejected = [...failed].map(([index, f]) => ({ orderId: batch[index]?.orderId ?? '', ...f }));
    const accepted = batch.filter((_, i) => !failed.has(i)).map((c) => c.orderId);
    return { accepted, rejected };
  }

  return {
    async upload(conversions) {
      const out: OfflineConversionsResult = { accepted: [], rejected: [] };
      for (const c of conversions) {
        if (!Number.isInteger(c.valueMinor) || c.valueMinor < 0 || !/^[A-Z]{3}$/.test(c.currency) || !c.orderId)
          throw new OfflineConversionsError('invalid_conversion', `Google Ads: conversion ${c.orderId} refused`, {
            retryable: false,
          });
      }
      for (let i = 0; i < conversions.length; i += GOOGLE_ADS_MAX_CONVERSIONS_PER_REQUEST) {
        const r = await post(conversions.slice(i, i + GOOGLE_ADS_MAX_CONVERSIONS_PER_REQUEST));
        out.accepted.push(...r.accepted);
        out.rejected.push(...r.rejected);
      }
      return out;
    },
  };
}
