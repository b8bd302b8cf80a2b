/** One numbered schema step; each store keeps its own list in its own SQL dialect. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
