/* Prints which server libmemcached's weighted ketama (MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED)
 * gives each key: servers from argv[1] ("host:port*weight,..."), keys one per line on
 * stdin, "key host:port" per line on stdout. No memcached needs to run: the continuum
 * is computed when servers are added. Built and run by tools/ketama-vectors.sh. */
#include <libmemcached/memcached.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s host:port*weight,... < keys\n", argv[0]);
    return 2;
  }
  memcached_st *memc = memcached_create(NULL);
  memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, 1);
  char *list = strdup(argv[1]);
  for (char *item = strtok(list, ","); item; item = strtok(NULL, ",")) {
    uint32_t weight = 1;
    char *star = strchr(item, '*');
    if (star) { *star = 0; weight = (uint32_t) atoi(star + 1); }
    in_port_t port = 11211;
    char *colon = strrchr(item, ':');
    if (colon) { *colon = 0; port = (in_port_t) atoi(colon + 1); }
    if (memcached_server_add_with_weight(memc, item, port, weight) != MEMCACHED_SUCCESS) {
      fprintf(stderr, "cannot add %s\n", item);
      return 1;
    }
  }
  char key[512];
  while (fgets(key, sizeof key, stdin)) {
    key[strcspn(key, "\n")] = 0;
    memcached_return_t rc;
    const memcached_instance_st *s = memcached_server_by_key(memc, key, strlen(key), &rc);
    if (!s) { fprintf(stderr, "no server for %s\n", key); return 1; }
    printf("%s %s:%u\n", key, memcached_server_name(s), (unsigned) memcached_server_port(s));
  }
  memcached_free(memc);
  return 0;
}
