// The few Node APIs the tools use. @types/node is not a dependency of this project (the Worker must
// not see Node types), so the tools declare what they call; tsx runs them on real Node 20.
declare const process: {
  argv: string[];
  env: Record<string, string | undefined>;
  exitCode: number | undefined;
  pid: number;
  /** The Node binary running this process. */
  execPath: string;
  platform: string;
  exit(code?: number): never;
  kill(pid: number, signal?: string): void;
  cwd(): string;
  on(event: "SIGINT" | "SIGTERM", listener: (signal: "SIGINT" | "SIGTERM") => void): void;
  on(event: "exit", listener: () => void): void;
  once(event: "exit", listener: () => void): void;
  removeListener(event: "SIGINT" | "SIGTERM" | "exit", listener: (...args: never[]) => void): void;
  stdout: { write(text: string): boolean; isTTY?: boolean };
};

declare module "node:http" {
  export interface IncomingMessage extends AsyncIterable<Uint8Array> {
    method?: string;
    url?: string;
    headers: Record<string, string | string[] | undefined>;
  }
  export interface ServerResponse {
    writeHead(status: number, headers?: Record<string, string>): this;
    end(body?: string): void;
  }
  export interface Server {
    listen(port: number, host: string, callback: () => void): this;
    address(): { port: number; address: string } | string | null;
    close(callback?: (error?: Error) => void): this;
    closeAllConnections(): void;
    on(event: "error", listener: (error: Error) => void): this;
  }
  export function createServer(handler: (request: IncomingMessage, response: ServerResponse) => void): Server;
  /** A client's answer (the bench's paced load: test/bench/paced.ts). */
  export interface ClientResponse {
    statusCode?: number;
    resume(): this;
    on(event: "end", listener: () => void): this;
    on(event: "error", listener: (error: Error) => void): this;
  }
  export interface ClientRequest {
    on(event: "error", listener: (error: Error) => void): this;
    end(body?: string): void;
  }
  export class Agent {
    constructor(options?: { keepAlive?: boolean; maxSockets?: number });
    destroy(): void;
  }
  export function request(
    url: string,
    options: { method?: string; headers?: Record<string, string>; agent?: Agent },
    callback: (response: ClientResponse) => void,
  ): ClientRequest;
}

declare module "node:util" {
  type Option = { type: "string" | "boolean"; default?: string | boolean; short?: string };
  export function parseArgs<T extends Record<string, Option>>(config: {
    args?: string[];
    options: T;
    strict?: boolean;
    allowPositionals?: boolean;
  }): { values: { [K in keyof T]?: T[K]["type"] extends "boolean" ? boolean : string }; positionals: string[] };
}

declare module "node:child_process" {
  export interface ChildProcess {
    pid?: number;
    exitCode: number | null;
    signalCode: string | null;
    stdout: { on(event: "data", listener: (chunk: Uint8Array) => void): void } | null;
    stderr: { on(event: "data", listener: (chunk: Uint8Array) => void): void } | null;
    on(event: "exit", listener: (code: number | null) => void): this;
    on(event: "error", listener: (error: Error) => void): this;
    unref(): void;
  }
  export function spawn(
    command: string,
    args: string[],
    options?: { cwd?: string; detached?: boolean; stdio?: ("pipe" | "ignore" | "inherit")[]; env?: Record<string, string | undefined> },
  ): ChildProcess;
}

declare module "node:module" {
  export function createRequire(from: string): { (id: string): unknown; resolve(id: string): string };
}

declare module "node:net" {
  export interface Socket {
    write(data: string): boolean;
    end(): void;
    destroy(): void;
    on(event: "close" | "error", listener: () => void): this;
    on(event: "data", listener: (chunk: Uint8Array) => void): this;
  }
  export function createConnection(port: number, host: string, onConnect?: () => void): Socket;
}

declare module "node:fs" {
  export function rmSync(path: string, options?: { recursive?: boolean; force?: boolean }): void;
  export function readdirSync(path: string): string[];
}

declare module "node:fs/promises" {
  export function writeFile(path: string, data: string): Promise<void>;
  export function readFile(path: string): Promise<Uint8Array>;
  export function readdir(path: string): Promise<string[]>;
  export function readdir(
    path: string,
    options: { recursive: true; withFileTypes: true },
  ): Promise<{ name: string; parentPath: string; isFile(): boolean; isSymbolicLink(): boolean }[]>;
  export function mkdtemp(prefix: string): Promise<string>;
  export function rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
}

declare module "node:zlib" {
  export function gzipSync(data: Uint8Array, options?: { level?: number }): Uint8Array;
}

declare module "node:os" {
  export function tmpdir(): string;
  export function cpus(): { model: string }[];
  export function platform(): string;
}

declare module "node:path" {
  export function join(...parts: string[]): string;
}
