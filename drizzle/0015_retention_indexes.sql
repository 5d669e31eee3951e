-- Retention (issue 18). `backtrack prune` keeps the sources of forks: the run ids that runs'
-- run:start headers name as forkedFrom.runId, looked up per candidate through this small partial
-- index (only run:start records enter it; other appends only test the predicate). Old runs are
-- found through runs_started_idx and sessions through their primary key, so no index is added on
-- updated_at: one there would make every summary write a non-HOT update of all the runs' indexes.
CREATE INDEX IF NOT EXISTS "records_forked_from_idx" ON "records" USING btree ((("payload" -> 'forkedFrom') ->> 'runId')) WHERE "name" = 'run:start';
