import { RoleSchema } from '../../shared/domain/roles';
import { PasswordSchema, UsernameSchema } from '../../shared/api/auth';
import { openAndMigrate } from '../../db/database';
import { loadConfig } from '../config';
import { HttpError } from '../http/http-error';
import { createUser } from '../users/user-service';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `user add <name> --role <role>`: password from piped stdin, else generated and printed once. */
export async function runUserAdd(name: string, options: { role: string }): Promise<number> {
  const username = UsernameSchema.safeParse(name);
  if (!username.success) throw new Error(`username: ${username.error.issues[0]?.message}`);
  const role = RoleSchema.safeParse(options.role);
  if (!role.success) throw new Error(`--role: must be one of ${RoleSchema.options.join(', ')}`);
  let password: string | undefined;
  if (!process.stdin.isTTY) {
    const piped = (await readStdin()).replace(/\r?\n$/, '');
    if (piped !== '') {
      const checked = PasswordSchema.safeParse(piped);
      if (!checked.success) throw new Error(`password (stdin): ${checked.error.issues[0]?.message}`);
      password = checked.data;
    }
  }
  const db = openAndMigrate(loadConfig().dbPath);
  try {
    const { user, generatedPassword } = await createUser(db, username.data, role.data, password);
    process.stdout.write(`created ${user.role} "${user.username}"\n`);
    if (generatedPassword) process.stdout.write(`password (shown once): ${generatedPassword}\n`);
    return 0;
  } catch (error) {
    if (error instanceof HttpError) throw new Error(error.message, { cause: error });
    throw error;
  } finally {
    db.close();
  }
}
