/** The NOTIFY channel every process's bus uses, on PostgreSQL and on the embedded database's socket. */
export const CHANNEL = "colbench_events";
