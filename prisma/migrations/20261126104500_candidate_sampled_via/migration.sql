-- How each candidate was made: "own" (the turn's own output, scored), "chat" (sampled from stored chat
-- messages through chat completions) or "completions" (sampled from the prompt string through
-- completions, as the published sampler does). Null for candidates stored before this was kept.
ALTER TABLE "Candidate" ADD COLUMN "sampledVia" TEXT;
