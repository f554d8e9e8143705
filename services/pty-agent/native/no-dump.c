/*
 * no-dump: loaded into the agent and its spawner (process.dlopen), it marks the process not
 * dumpable (prctl PR_SET_DUMPABLE 0). A non-dumpable process's /proc files (environ, mem, maps,
 * fd) belong to root and ptrace is refused to processes without CAP_SYS_PTRACE, even of the same
 * user, and it leaves no core dump: a session's program cannot read the service's memory or its
 * environment. Node has no binding for prctl(2), and no maintained npm package offers one
 * without a native build of its own; this build already compiles C (stream-relay.c).
 *
 * A Node-API module without node_api.h: Node looks up napi_register_module_v1 in a library it
 * opens, and calls it with the module's exports; the types are opaque pointers here, as there.
 * The work is done on load; the exports are left as they were.
 */
#include <sys/prctl.h>

typedef struct napi_env__ *napi_env;
typedef struct napi_value__ *napi_value;

__attribute__((visibility("default"))) napi_value napi_register_module_v1(napi_env env, napi_value exports) {
  (void)env;
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  return exports;
}
