/** The contract suite's XML-RPC test codec (the npm clients' `xmlrpc` package). */
export { encodeCall, parseResponse, xmlrpcCall, type WireResult } from '@platform/erp/contract/xmlrpc-wire.js';
