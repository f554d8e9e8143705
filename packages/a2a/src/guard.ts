import { A2aError } from './a2a-error';

/** Runs `fn`, turning whatever it throws into an A2aError (BindingErrors keep their meaning). */
export async function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw A2aError.from(err);
  }
}
