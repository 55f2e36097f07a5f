-- AlterTable
ALTER TABLE "Episode" ADD COLUMN     "agentCompletionTokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "agentPromptTokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "agentTurnCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "simulatorCompletionTokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "simulatorPromptTokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "turnCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "answerChars" INTEGER GENERATED ALWAYS AS (length("answer")) STORED;

-- The totals follow every write to Turn, whichever path makes it (the runner's plain INSERT, an
-- imported trajectory, a deleted run). An inserted turn adds itself to its episode in a row trigger:
-- turns are written one at a time while episodes play, and a row trigger costs that hot path less
-- than a statement trigger's transition table and aggregate. Deletes and updates come in bulk (a
-- deleted run cascades to all its turns) and go through statement triggers with transition tables,
-- one UPDATE of the episodes touched; an UPDATE that changes neither role nor usage (advantages,
-- critic scores) changes no episode.
CREATE FUNCTION "colbench_turn_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "Episode"
     SET "turnCount" = "turnCount" + 1,
         "agentTurnCount" = "agentTurnCount" + (NEW."role" = 'agent')::int,
         "agentPromptTokens" = "agentPromptTokens" + CASE WHEN NEW."role" = 'agent' THEN coalesce((NEW."usage"->>'promptTokens')::bigint, 0)::int ELSE 0 END,
         "agentCompletionTokens" = "agentCompletionTokens" + CASE WHEN NEW."role" = 'agent' THEN coalesce((NEW."usage"->>'completionTokens')::bigint, 0)::int ELSE 0 END,
         "simulatorPromptTokens" = "simulatorPromptTokens" + CASE WHEN NEW."role" = 'simulator' THEN coalesce((NEW."usage"->>'promptTokens')::bigint, 0)::int ELSE 0 END,
         "simulatorCompletionTokens" = "simulatorCompletionTokens" + CASE WHEN NEW."role" = 'simulator' THEN coalesce((NEW."usage"->>'completionTokens')::bigint, 0)::int ELSE 0 END
   WHERE "id" = NEW."episodeId";
  RETURN NULL;
END
$$;

CREATE FUNCTION "colbench_turn_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE "Episode" e
       SET "turnCount" = e."turnCount" - d.turns, "agentTurnCount" = e."agentTurnCount" - d.agent,
           "agentPromptTokens" = e."agentPromptTokens" - d.ap, "agentCompletionTokens" = e."agentCompletionTokens" - d.ac,
           "simulatorPromptTokens" = e."simulatorPromptTokens" - d.sp, "simulatorCompletionTokens" = e."simulatorCompletionTokens" - d.sc
      FROM (SELECT "episodeId", count(*)::int AS turns, count(*) FILTER (WHERE "role" = 'agent')::int AS agent,
                   coalesce(sum(("usage"->>'promptTokens')::bigint) FILTER (WHERE "role" = 'agent'), 0)::int AS ap,
                   coalesce(sum(("usage"->>'completionTokens')::bigint) FILTER (WHERE "role" = 'agent'), 0)::int AS ac,
                   coalesce(sum(("usage"->>'promptTokens')::bigint) FILTER (WHERE "role" = 'simulator'), 0)::int AS sp,
                   coalesce(sum(("usage"->>'completionTokens')::bigint) FILTER (WHERE "role" = 'simulator'), 0)::int AS sc
              FROM old_turns GROUP BY "episodeId") d
     WHERE e."id" = d."episodeId";
  ELSE
    UPDATE "Episode" e
       SET "turnCount" = e."turnCount" + d.turns, "agentTurnCount" = e."agentTurnCount" + d.agent,
           "agentPromptTokens" = e."agentPromptTokens" + d.ap, "agentCompletionTokens" = e."agentCompletionTokens" + d.ac,
           "simulatorPromptTokens" = e."simulatorPromptTokens" + d.sp, "simulatorCompletionTokens" = e."simulatorCompletionTokens" + d.sc
      FROM (SELECT "episodeId", sum(n)::int AS turns, coalesce(sum(n) FILTER (WHERE "role" = 'agent'), 0)::int AS agent,
                   coalesce(sum(n * ("usage"->>'promptTokens')::bigint) FILTER (WHERE "role" = 'agent'), 0)::int AS ap,
                   coalesce(sum(n * ("usage"->>'completionTokens')::bigint) FILTER (WHERE "role" = 'agent'), 0)::int AS ac,
                   coalesce(sum(n * ("usage"->>'promptTokens')::bigint) FILTER (WHERE "role" = 'simulator'), 0)::int AS sp,
                   coalesce(sum(n * ("usage"->>'completionTokens')::bigint) FILTER (WHERE "role" = 'simulator'), 0)::int AS sc
              FROM (SELECT o."episodeId", o."role", o."usage", -1 AS n FROM old_turns o
                     WHERE NOT EXISTS (SELECT 1 FROM new_turns w WHERE w."id" = o."id" AND w."episodeId" = o."episodeId"
                                         AND w."role" = o."role" AND w."usage" IS NOT DISTINCT FROM o."usage")
                    UNION ALL
                    SELECT w."episodeId", w."role", w."usage", 1 AS n FROM new_turns w
                     WHERE NOT EXISTS (SELECT 1 FROM old_turns o WHERE w."id" = o."id" AND w."episodeId" = o."episodeId"
                                         AND w."role" = o."role" AND w."usage" IS NOT DISTINCT FROM o."usage")) changed
             GROUP BY "episodeId") d
     WHERE e."id" = d."episodeId";
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "Turn_totals_insert" AFTER INSERT ON "Turn"
  FOR EACH ROW EXECUTE FUNCTION "colbench_turn_inserted"();
CREATE TRIGGER "Turn_totals_delete" AFTER DELETE ON "Turn" REFERENCING OLD TABLE AS old_turns
  FOR EACH STATEMENT EXECUTE FUNCTION "colbench_turn_totals"();
CREATE TRIGGER "Turn_totals_update" AFTER UPDATE ON "Turn" REFERENCING OLD TABLE AS old_turns NEW TABLE AS new_turns
  FOR EACH STATEMENT EXECUTE FUNCTION "colbench_turn_totals"();

-- Episodes stored before this migration.
UPDATE "Episode" e
   SET "turnCount" = d.turns, "agentTurnCount" = d.agent, "agentPromptTokens" = d.ap, "agentCompletionTokens" = d.ac,
       "simulatorPromptTokens" = d.sp, "simulatorCompletionTokens" = d.sc
  FROM (SELECT "episodeId", count(*)::int AS turns, count(*) FILTER (WHERE "role" = 'agent')::int AS agent,
               coalesce(sum(("usage"->>'promptTokens')::bigint) FILTER (WHERE "role" = 'agent'), 0)::int AS ap,
               coalesce(sum(("usage"->>'completionTokens')::bigint) FILTER (WHERE "role" = 'agent'), 0)::int AS ac,
               coalesce(sum(("usage"->>'promptTokens')::bigint) FILTER (WHERE "role" = 'simulator'), 0)::int AS sp,
               coalesce(sum(("usage"->>'completionTokens')::bigint) FILTER (WHERE "role" = 'simulator'), 0)::int AS sc
          FROM "Turn" GROUP BY "episodeId") d
 WHERE e."id" = d."episodeId";
