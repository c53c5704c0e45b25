// `npm run fuzz [-- jest args]`: the fuzz suites with a random seed (or FUZZ_SEED) and FUZZ_RUNS
// cases each (default: ten times what `npm test` runs). Prints the seed first, so a failure replays.
const { spawnSync } = require("node:child_process");

const seed = process.env.FUZZ_SEED ?? String(1 + Math.floor(Math.random() * 2_000_000_000));
console.log(`FUZZ_SEED=${seed}`);
const result = spawnSync(process.execPath, [require.resolve("jest/bin/jest"), "--config", "jest.fuzz.config.ts", ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, FUZZ_SEED: seed, FUZZ_RUNS: process.env.FUZZ_RUNS ?? "" },
});
process.exit(result.status ?? 1);
