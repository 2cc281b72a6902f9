// Errors that reach the person running a command. A UserError is the user's to fix (exit 1);
// anything else is ours (exit 2). Messages are one clear sentence.

export class UserError extends Error {
  readonly exitCode = 1;
  constructor(message: string, readonly hint?: string) {
    super(message);
    this.name = "UserError";
  }
}

export function isUserError(e: unknown): e is UserError {
  return e instanceof UserError;
}
