// Monte Carlo pi, the supervisor, in the thesis's C++ style (Annex A): the
// task is a class, its variables are members, its messages are methods.
// Only the input differs: the shots per batch come from argv, not cin.
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <vector>
#include "fatherMDL.hh"

using namespace std;

static const double pi_ref = 3.14159265358979323846;

int main(int argc, char **argv)
{
    father t;
    t.MDL_Init(&argc, &argv);
    int sons = t.MDL_sonSize();
    t.number = argc > 1 ? atoi(argv[1]) : 100000;  // was: cin >> t.number;
    t.batches = BATCHES;

    t.MDL_RecvFrom_son_startMessage();      // box and coef, from son 0 (any instance)
    t.MDL_SendTo_son_shootMessage();        // to every son
    t.MDL_shootMessageWait();

    long long in = 0;
    vector<int> share(sons);
    for (int k = 0; k < sons * t.batches; k++) {
        int who = t.MDL_RecvFrom_son_inMessage();   // from any son
        if (who != t.who) {
            cerr << "father: batch from son " << who << " claims to be from " << t.who << endl;
            return 1;
        }
        share[who]++;
        in += t.in;
    }
    double shots = (double)sons * t.batches * t.number;
    double pi = t.coef * t.box * (double)in / shots;
    cout << "pi = " << fixed << setprecision(6) << pi << endl;
    cout << "absolute error = " << scientific << setprecision(2) << fabs(pi - pi_ref) << " ("
         << fixed << setprecision(0) << shots << " shots)" << endl;
    for (int s = 0; s < sons; s++)
        cout << "son " << s << ": " << share[s] << " of " << sons * t.batches << " batches ("
             << 100.0 * share[s] / (sons * t.batches) << "%)" << endl;
    t.MDL_End();
    return 0;
}
