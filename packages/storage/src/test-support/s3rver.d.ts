// The fork ships no types; only what the tests use.
declare module '@20minutes/s3rver' {
  export default class S3rver {
    constructor(opts: {
      address?: string;
      port?: number;
      silent?: boolean;
      directory: string;
      configureBuckets?: { name: string }[];
    });
    run(): Promise<unknown>;
    close(): Promise<void>;
  }
}
