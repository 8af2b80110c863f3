// The fixed 60/40 train/validation split of trigger queries.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TriggerQuery } from "../../src/cli/eval/trigger-evals.js";
import { splitTriggerQueries } from "../../src/cli/eval/trigger-split.js";

const yes = (query: string): TriggerQuery => ({ query, shouldTrigger: true });
const no = (query: string): TriggerQuery => ({ query, shouldTrigger: false });

// Where each goes follows from the SHA-256 of its text.
const TUNE_QUERIES = [
  yes("Check the csv files"),
  yes("Summarise my spreadsheet"),
  yes("Profile this table of orders"),
  yes("What columns does data.tsv have"),
  yes("Find missing values in the export"),
  no("Convert csv to yaml"),
  no("Write release notes"),
  no("Update the formulas in my spreadsheet"),
  no("Hello there"),
  no("Upload each row to postgres"),
];

describe("splitTriggerQueries", () => {
  it("puts 60% of each kind in train, chosen by the hash of the query, and keeps the file's order in each part", () => {
    expect(splitTriggerQueries(TUNE_QUERIES)).toEqual({
      train: [
        yes("Check the csv files"),
        yes("Summarise my spreadsheet"),
        yes("Profile this table of orders"),
        no("Write release notes"),
        no("Hello there"),
        no("Upload each row to postgres"),
      ],
      validation: [
        yes("What columns does data.tsv have"),
        yes("Find missing values in the export"),
        no("Convert csv to yaml"),
        no("Update the formulas in my spreadsheet"),
      ],
    });
  });

  it.each([
    [1, 1, 0],
    [2, 1, 1],
    [3, 2, 1],
    [4, 2, 2],
    [9, 5, 4],
    [10, 6, 4],
  ])("of %i queries of a kind, %i train and %i validation", (count, train, validation) => {
    const split = splitTriggerQueries(Array.from({ length: count }, (_, index) => yes(`query ${index}`)));
    expect([split.train.length, split.validation.length]).toEqual([train, validation]);
  });

  it("is the same split whatever the order of the file, with each kind's share the same in both parts (±1 query)", () => {
    const queries = fc.uniqueArray(fc.record({ query: fc.string({ minLength: 1 }), shouldTrigger: fc.boolean() }), {
      selector: (entry) => entry.query,
      minLength: 2,
      maxLength: 40,
    });
    fc.assert(
      fc.property(queries, fc.func(fc.integer()), (list, order) => {
        const shuffled = [...list].sort((a, b) => order(a.query) - order(b.query));
        const names = (entries: TriggerQuery[]) => new Set(entries.map((entry) => entry.query));
        const split = splitTriggerQueries(list);
        expect(names(splitTriggerQueries(shuffled).train)).toEqual(names(split.train));
        for (const kind of [true, false]) {
          const count = list.filter((entry) => entry.shouldTrigger === kind).length;
          const train = split.train.filter((entry) => entry.shouldTrigger === kind).length;
          expect(Math.abs(train - 0.6 * count)).toBeLessThanOrEqual(0.5);
        }
      }),
    );
  });
});
