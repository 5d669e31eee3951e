/**
 * Job queue benchmark on the server (issue 18, "Scale out"):
 * - jobsPerSec: no-op jobs claimed and completed by 4 JobRunners (concurrency 1 each, one pool of
 *   8 connections), against 4 bare loops of the same two statements' shape on their own pool of 8
 *   (`UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED LIMIT 1) RETURNING`, then an UPDATE to
 *   done). Each round queues JOBS jobs for each side (bulk INSERT, not timed) and times until all
 *   are done; rounds alternate which side goes first; medians of 9 rounds are reported.
 */
import postgres from "postgres";
import { JobRunner } from "../lib/jobs/runner";
import { openStore } from "../lib/store/index";
import { interleaved, time, type Benchmark } from "./harness";

const JOBS = 400;
const RUNNERS = 4;
const ROUNDS = 9;
const WARMUP = 1;

const jobsPerSec: Benchmark = {
  name: "jobs",
  async run(context) {
    const url = await context.serverDatabase();
    const store = await openStore({ url, poolSize: 8 });
    const bare = postgres(url, { max: 8, onnotice: () => undefined });
    await bare`create table bare_jobs (id bigserial primary key, status text not null default 'queued', input jsonb not null default '{}', output jsonb)`;
    await bare`create index bare_jobs_queued on bare_jobs (id) where status = 'queued'`;

    const runnerRound = async (round: number) => {
      await store.client.query(`INSERT INTO jobs (job_id, kind, input) SELECT 'bench-${round}-' || g, 'noop', '{}'::jsonb FROM generate_series(1, ${JOBS}) AS g`);
      let done = 0;
      let finished = () => undefined as void;
      const all = new Promise<void>((resolve) => (finished = resolve));
      const { ms } = await time(async () => {
        const runners = Array.from(
          { length: RUNNERS },
          () =>
            new JobRunner(store.client, {
              handlers: { noop: async () => null },
              concurrency: 1,
              onEvent: (event) => {
                if (event.type === "done" && (done += 1) === JOBS) finished();
              },
            }),
        );
        await all;
        await Promise.all(runners.map((runner) => runner.stop({ graceMs: 0 })));
      });
      return (JOBS / ms) * 1000;
    };

    const bareRound = async () => {
      await bare`insert into bare_jobs (status) select 'queued' from generate_series(1, ${JOBS})`;
      const loop = async () => {
        for (;;) {
          const [claimed] = await bare`
            update bare_jobs set status = 'running'
            where id = (select id from bare_jobs where status = 'queued' order by id limit 1 for update skip locked)
            returning id, input`;
          if (!claimed) return;
          await bare`update bare_jobs set status = 'done', output = 'null'::jsonb where id = ${claimed.id as string}`;
        }
      };
      const { ms } = await time(() => Promise.all(Array.from({ length: RUNNERS }, loop)));
      return (JOBS / ms) * 1000;
    };

    const medians = await interleaved(ROUNDS, { runners: runnerRound, bare: bareRound }, { warmup: WARMUP });
    await bare.end();
    await store.close();
    return { jobsPerSec: medians.runners, bareJobsPerSec: medians.bare, jobsVsBare: medians.runners / medians.bare };
  },
};

export const jobBenchmarks: Benchmark[] = [jobsPerSec];
