/* gen_trace.c — writes a large synthetic trace in the format of
 * docs/tracing.md, to see that mdltrace reads it in linear time and
 * bounded memory (tests/suite-trace.sh prints the figures).
 *
 *   gen_trace NSONS NMSGS OUT.json
 *
 * A Monte Carlo shape: father[0] receives NMSGS messages of 12 bytes from
 * son[0..NSONS-1] in turn, each with its flow; every 100 messages all
 * instances meet in an Allreduce. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: gen_trace NSONS NMSGS OUT.json\n");
        return 2;
    }
    long sons = atol(argv[1]), msgs = atol(argv[2]);
    if (sons < 1 || msgs < 0) {
        fprintf(stderr, "gen_trace: NSONS >= 1, NMSGS >= 0\n");
        return 2;
    }
    FILE *f = fopen(argv[3], "w");
    if (!f) {
        perror(argv[3]);
        return 2;
    }
    long *events = calloc((size_t)sons + 1, sizeof *events);
    double *now = calloc((size_t)sons + 1, sizeof *now);
    if (!events || !now)
        return 2;
    fputs("{\"traceEvents\":[\n", f);
    fputs("{\"ph\":\"M\",\"ts\":0,\"pid\":1,\"tid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"father\"}},\n"
          "{\"ph\":\"M\",\"ts\":0,\"pid\":2,\"tid\":2,\"name\":\"process_name\",\"args\":{\"name\":\"son\"}},\n"
          "{\"ph\":\"M\",\"ts\":0,\"pid\":1,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"father[0]\"}}", f);
    for (long s = 0; s < sons; s++)
        fprintf(f, ",\n{\"ph\":\"M\",\"ts\":0,\"pid\":2,\"tid\":%ld,\"name\":\"thread_name\","
                   "\"args\":{\"name\":\"son[%ld]\"}}", s + 2, s);
    for (long k = 0; k < msgs; k++) {
        long s = k % sons, tid = s + 2;
        double st = now[s + 1], rt = now[0] > st ? now[0] : st;
        fprintf(f, ",\n{\"ph\":\"X\",\"ts\":%.3f,\"dur\":1.000,\"pid\":2,\"tid\":%ld,"
                   "\"name\":\"MDL_SendTo_father_oneShoot\",\"cat\":\"send\",\"args\":{\"msg\":"
                   "\"oneShoot\",\"bytes\":12,\"peer\":\"father[0]\",\"copy_us\":0.1}}", st, tid);
        fprintf(f, ",\n{\"ph\":\"s\",\"ts\":%.3f,\"pid\":2,\"tid\":%ld,\"name\":\"message\","
                   "\"cat\":\"mdl\",\"id\":\"%lx\"}", st + 0.5, tid, k + 1);
        fprintf(f, ",\n{\"ph\":\"X\",\"ts\":%.3f,\"dur\":2.000,\"pid\":1,\"tid\":1,"
                   "\"name\":\"MDL_RecvFrom_son_inMessage\",\"cat\":\"recv\",\"args\":{\"msg\":"
                   "\"inMessage\",\"bytes\":12,\"peer\":\"son[%ld]\",\"wait_us\":1.5,"
                   "\"copy_us\":0.1}}", rt, s);
        fprintf(f, ",\n{\"ph\":\"f\",\"ts\":%.3f,\"pid\":1,\"tid\":1,\"name\":\"message\","
                   "\"cat\":\"mdl\",\"id\":\"%lx\",\"bp\":\"e\"}", rt + 1.0, k + 1);
        now[s + 1] = st + 1.5;
        now[0] = rt + 2.5;
        events[s + 1]++;
        events[0]++;
        if (k % 100 == 99) {
            double top = 0;
            for (long i = 0; i <= sons; i++)
                top = now[i] > top ? now[i] : top;
            for (long i = 0; i <= sons; i++) {
                fprintf(f, ",\n{\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":%d,\"tid\":%ld,"
                           "\"name\":\"MDL_Allreduce_total\",\"cat\":\"coll\",\"args\":"
                           "{\"msg\":\"total\",\"bytes\":8}}",
                        now[i], top - now[i] + 1.0, i ? 2 : 1, i + 1);
                now[i] = top + 1.5;
                events[i]++;
            }
        }
    }
    fputs("\n],\n\"otherData\":{\"format\":\"medley-trace\",\"version\":1,\"spec\":\"synthetic.mdl\","
          "\"spec_hash\":\"0000000000000000\",\"runtime\":\"shm\",\"end\":\"normal\",\"instances\":[", f);
    for (long i = 0; i <= sons; i++)
        fprintf(f, "%s\n{\"name\":\"%s[%ld]\",\"pid\":%d,\"tid\":%ld,\"events\":%ld,\"dropped\":0,"
                   "\"end\":\"normal\"}", i ? "," : "", i ? "son" : "father", i ? i - 1 : 0,
                i ? 2 : 1, i + 1, events[i]);
    fputs("\n]}}\n", f);
    free(events);
    free(now);
    if (fclose(f) != 0) {
        perror(argv[3]);
        return 2;
    }
    return 0;
}
