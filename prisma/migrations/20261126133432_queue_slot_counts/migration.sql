-- AlterTable
ALTER TABLE "Queue" ADD COLUMN     "labelledSlots" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "slots" INTEGER NOT NULL DEFAULT 0;

-- The counts of a queue's slots and of its labelled ones, kept as slots change, so that reading a
-- queue's progress (every key press at the desk) costs the same at its first label and its ten-thousandth.
UPDATE "Queue" q SET "slots" = (SELECT count(*) FROM "QueueSlot" s WHERE s."queueId" = q."id"),
                     "labelledSlots" = (SELECT count(*) FROM "QueueSlot" s WHERE s."queueId" = q."id" AND s."labelled");

-- Statement-level, with transition tables: a queue's thousands of slots made (or deleted) in one
-- statement change its row once, not once per slot.
CREATE FUNCTION "queue_slot_counts_keep"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "Queue" q SET "slots" = q."slots" + d."slots", "labelledSlots" = q."labelledSlots" + d."labelled"
      FROM (SELECT "queueId", count(*)::int AS "slots", (count(*) FILTER (WHERE "labelled"))::int AS "labelled" FROM "added" GROUP BY "queueId") d
     WHERE q."id" = d."queueId";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "Queue" q SET "slots" = q."slots" - d."slots", "labelledSlots" = q."labelledSlots" - d."labelled"
      FROM (SELECT "queueId", count(*)::int AS "slots", (count(*) FILTER (WHERE "labelled"))::int AS "labelled" FROM "removed" GROUP BY "queueId") d
     WHERE q."id" = d."queueId";
  ELSE
    UPDATE "Queue" q SET "slots" = q."slots" + d."slots", "labelledSlots" = q."labelledSlots" + d."labelled"
      FROM (SELECT "queueId", sum("slots")::int AS "slots", sum("labelled")::int AS "labelled"
              FROM (SELECT "queueId", 1 AS "slots", (CASE WHEN "labelled" THEN 1 ELSE 0 END) AS "labelled" FROM "after"
                    UNION ALL
                    SELECT "queueId", -1, (CASE WHEN "labelled" THEN -1 ELSE 0 END) FROM "before") c
             GROUP BY "queueId") d
     WHERE q."id" = d."queueId" AND (d."slots" <> 0 OR d."labelled" <> 0);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "QueueSlot_counts_insert" AFTER INSERT ON "QueueSlot" REFERENCING NEW TABLE AS "added"
  FOR EACH STATEMENT EXECUTE FUNCTION "queue_slot_counts_keep"();
CREATE TRIGGER "QueueSlot_counts_delete" AFTER DELETE ON "QueueSlot" REFERENCING OLD TABLE AS "removed"
  FOR EACH STATEMENT EXECUTE FUNCTION "queue_slot_counts_keep"();
CREATE TRIGGER "QueueSlot_counts_update" AFTER UPDATE ON "QueueSlot" REFERENCING OLD TABLE AS "before" NEW TABLE AS "after"
  FOR EACH STATEMENT EXECUTE FUNCTION "queue_slot_counts_keep"();
