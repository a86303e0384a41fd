/** An error the simulator answers with Discord's status and JSON error code. */
export class SimError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
