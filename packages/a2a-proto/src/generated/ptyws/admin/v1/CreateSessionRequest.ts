// Original file: proto/ptyws/admin/v1/admin.proto


export interface CreateSessionRequest {
  /**
   * The program and its arguments; default: the configured shell.
   */
  'argv'?: (string)[];
  /**
   * A shell command line (`/bin/sh -c`), instead of `argv`.
   */
  'command'?: (string);
  'cwd'?: (string);
  /**
   * Extra environment (validated by the agent against its allowlist).
   */
  'env'?: ({[key: string]: string});
  /**
   * Give both `cols` and `rows` or neither.
   */
  'cols'?: (number);
  'rows'?: (number);
  'session_backend'?: (string);
  'session_class'?: (string);
  /**
   * Place the session on this agent instead of any live one.
   */
  'agent_id'?: (string);
  /**
   * `process` or `live_shell`: how A2A tasks of this session run.
   */
  'task_executor'?: (string);
  '_command'?: "command";
  '_cwd'?: "cwd";
  '_cols'?: "cols";
  '_rows'?: "rows";
  '_session_backend'?: "session_backend";
  '_session_class'?: "session_class";
  '_agent_id'?: "agent_id";
  '_task_executor'?: "task_executor";
}

export interface CreateSessionRequest__Output {
  /**
   * The program and its arguments; default: the configured shell.
   */
  'argv'?: (string)[];
  /**
   * A shell command line (`/bin/sh -c`), instead of `argv`.
   */
  'command'?: (string);
  'cwd'?: (string);
  /**
   * Extra environment (validated by the agent against its allowlist).
   */
  'env'?: ({[key: string]: string});
  /**
   * Give both `cols` and `rows` or neither.
   */
  'cols'?: (number);
  'rows'?: (number);
  'session_backend'?: (string);
  'session_class'?: (string);
  /**
   * Place the session on this agent instead of any live one.
   */
  'agent_id'?: (string);
  /**
   * `process` or `live_shell`: how A2A tasks of this session run.
   */
  'task_executor'?: (string);
  '_command'?: "command";
  '_cwd'?: "cwd";
  '_cols'?: "cols";
  '_rows'?: "rows";
  '_session_backend'?: "session_backend";
  '_session_class'?: "session_class";
  '_agent_id'?: "agent_id";
  '_task_executor'?: "task_executor";
}
