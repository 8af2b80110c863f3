/** The message of the error `run` throws (exactly, unlike toThrow's substring match). */
export function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected an error");
}
