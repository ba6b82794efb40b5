/* Parboil's timer functions as no-ops, ours: for programs whose timer calls trip over the
   suite's common/src/parboil.c (histo: pb_SwitchToSubTimer from the top-level timer of the same
   category stops a NULL timer and crashes, natively as under memcarlo). Built in its place, with
   the suite's args.c for the parameters. */
#include <parboil.h>

void pb_ResetTimer(struct pb_Timer* timer) { (void)timer; }
void pb_StartTimer(struct pb_Timer* timer) { (void)timer; }
void pb_StopTimer(struct pb_Timer* timer) { (void)timer; }
double pb_GetElapsedTime(struct pb_Timer* timer) { (void)timer; return 0.0; }
void pb_InitializeTimerSet(struct pb_TimerSet* timers) { (void)timers; }
void pb_AddSubTimer(struct pb_TimerSet* timers, char* label, enum pb_TimerID category) {
  (void)timers, (void)label, (void)category;
}
void pb_SwitchToTimer(struct pb_TimerSet* timers, enum pb_TimerID timer) {
  (void)timers, (void)timer;
}
void pb_SwitchToSubTimer(struct pb_TimerSet* timers, char* label, enum pb_TimerID category) {
  (void)timers, (void)label, (void)category;
}
void pb_PrintTimerSet(struct pb_TimerSet* timers) { (void)timers; }
void pb_DestroyTimerSet(struct pb_TimerSet* timers) { (void)timers; }
