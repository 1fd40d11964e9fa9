// The part of autocannon's API the bench uses (the package ships no types).
declare module "autocannon" {
  export type Histogram = {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    total?: number;
  };
  export type Result = {
    title?: string;
    requests: Histogram;
    latency: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    resets: number;
    statusCodeStats: Record<string, { count: number }>;
  };
  export type RawRequest = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
  export type RequestSpec = RawRequest & {
    setupRequest?: (request: RawRequest, context: Record<string, unknown>) => RawRequest | false | null | undefined;
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  };
  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    title?: string;
    requests?: RequestSpec[];
  };
  export type Instance = Promise<Result> & { stop(): void };
  export default function autocannon(options: Options): Instance;
}
