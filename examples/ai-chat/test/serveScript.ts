/**
 * `npm run ai-chat` as a child process, for the tests that need the real thing (test/serve.test.ts,
 * e2e/aiChat.e2e.test.ts): the package.json script's command, run with node, on a free port,
 * without any OpenAI key from the caller's environment (so it is always the scripted mock).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The repository root. */
export const ROOT = join(__dirname, "..", "..", "..");

/** The `ai-chat` script of package.json, split into ts-node's arguments. */
export function aiChatScript(): string[] {
  const pkg: unknown = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const scripts: unknown = typeof pkg === "object" && pkg !== null ? Reflect.get(pkg, "scripts") : undefined;
  const script = typeof scripts === "object" && scripts !== null && "ai-chat" in scripts ? scripts["ai-chat"] : undefined;
  if (typeof script !== "string") throw new Error(`expected package.json to have an "ai-chat" script, but got ${JSON.stringify(script)}`);
  const [command, ...args] = script.split(" ");
  if (command !== "ts-node") throw new Error(`expected the ai-chat script to run ts-node, but it runs ${JSON.stringify(command)}`);
  return args;
}

/** The running script: its URL, what it printed, and how to stop it. */
export interface RunningServeScript {
  readonly url: string;
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts the script with `env` added (PORT=0 unless given) and resolves once it printed its URL;
 * rejects with what it printed if it exits first.
 *
 * @example
 * const chat = await startServeScript({ AI_CHAT_DELAY_MS: "0" });
 * await fetch(chat.url);
 * expect(await chat.stop()).toBe(0);
 */
export function startServeScript(env: Readonly<Record<string, string>> = {}): Promise<RunningServeScript> {
  const { OPENAI_API_KEY: _key, OPENAI_BASE_URL: _base, ...inherited } = process.env;
  const child = spawn(process.execPath, [require.resolve("ts-node/dist/bin.js"), ...aiChatScript()], {
    cwd: ROOT,
    env: { ...inherited, PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const stop = (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    return closed;
  };
  return new Promise<RunningServeScript>((resolve, reject) => {
    let started = false;
    const onOutput = (chunk: string) => {
      out += chunk;
      const url = /^AI chat \(React\) at (\S+)$/m.exec(out)?.[1];
      if (url !== undefined && !started) {
        started = true;
        resolve({ url, output: () => out, stop });
      }
    };
    child.stdout.setEncoding("utf8").on("data", onOutput);
    child.stderr.setEncoding("utf8").on("data", onOutput);
    child.on("error", reject);
    void closed.then((code) => {
      if (!started) reject(new Error(`npm run ai-chat exited with ${String(code)} before it printed its URL; it printed:\n${out}`));
    });
  });
}
