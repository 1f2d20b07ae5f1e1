#!/usr/bin/env bash
# bench/plot.sh DIR — plots of DIR/summary.csv, DIR/vlasov.csv and
# DIR/compiler.csv (written by bench/run.sh) as DIR/*.png.  Needs gnuplot.
set -eu
dir=$1
command -v gnuplot >/dev/null || { echo "plot: gnuplot not installed" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/medley-plot.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
sum=$dir/summary.csv comp=$dir/compiler.csv
term="pngcairo size 900,480 font 'sans,10'"
gnuplot -e "set terminal pngcairo" 2>/dev/null || term="png size 900,480"

# series FILE BENCH PROCS VARIANT -> "size median ratio" lines
series() {
    awk -F, -v b="$2" -v np="$3" -v v="$4" '$1 == b && $4 == np && $5 == v { print $3, $6, $7 }' "$sum" \
        | sort -n > "$1"
}
for v in mpi mdl-mpi mdl-shm; do
    series "$tmp/pp-$v" pingpong 2 "$v"
    series "$tmp/h2-$v" halo 2 "$v"
    series "$tmp/h4-$v" halo 4 "$v"
done

if [ -s "$tmp/pp-mpi" ]; then
    gnuplot <<EOF
set terminal $term
set output '$dir/pingpong.png'
set multiplot layout 1,2 title "ping-pong between 2 instances (medians)"
set logscale xy 2
set format x "%.0b%B"
set xlabel "message size (bytes)"
set key top left
set grid
set ylabel "one-way time (us)"
set format y "%g"
set logscale y 10
plot '$tmp/pp-mpi' u 1:(\$2*1e6) w lp t 'hand-written MPI', \
     '$tmp/pp-mdl-mpi' u 1:(\$2*1e6) w lp t 'generated, MPI runtime', \
     '$tmp/pp-mdl-shm' u 1:(\$2*1e6) w lp t 'generated, shm runtime'
set ylabel "bandwidth (MB/s)"
plot '$tmp/pp-mpi' u 1:(\$1/\$2/1e6) w lp t 'hand-written MPI', \
     '$tmp/pp-mdl-mpi' u 1:(\$1/\$2/1e6) w lp t 'generated, MPI runtime', \
     '$tmp/pp-mdl-shm' u 1:(\$1/\$2/1e6) w lp t 'generated, shm runtime'
unset multiplot
set output '$dir/pingpong-ratio.png'
set title "ping-pong: time / hand-written MPI time (lower is better)"
set logscale x 2
set logscale y 10
set format y "%g"
set ylabel "ratio (log scale)"
set key top right
plot '$tmp/pp-mdl-mpi' u 1:3 w lp t 'generated, MPI runtime', \
     '$tmp/pp-mdl-shm' u 1:3 w lp t 'generated, shm runtime', \
     1.0 w l dt 2 lc rgb 'black' t '1.0', 1.05 w l dt 3 lc rgb 'gray' t '1.05', 1.10 w l dt 4 lc rgb 'gray' t '1.10'
EOF
fi

if [ -s "$tmp/h4-mpi" ] || [ -s "$tmp/h2-mpi" ]; then
    gnuplot <<EOF
set terminal $term
set output '$dir/halo.png'
set multiplot layout 1,2 title "2-D halo exchange (4 messages out, 4 in), time per exchange (medians)"
set logscale xy
set xlabel "domain N (N x N per instance)"
set ylabel "time per exchange (us)"
set grid
set key top left
set title "2 instances (one per core)"
plot '$tmp/h2-mpi' u 1:(\$2*1e6) w lp t 'hand-written MPI', \
     '$tmp/h2-mdl-mpi' u 1:(\$2*1e6) w lp t 'generated, MPI', \
     '$tmp/h2-mdl-shm' u 1:(\$2*1e6) w lp t 'generated, shm'
set title "4 instances on 2 cores"
set key bottom right
plot '$tmp/h4-mpi' u 1:(\$2*1e6) w lp t 'hand-written MPI', \
     '$tmp/h4-mdl-mpi' u 1:(\$2*1e6) w lp t 'generated, MPI', \
     '$tmp/h4-mdl-shm' u 1:(\$2*1e6) w lp t 'generated, shm'
unset multiplot
EOF
fi

# The Vlasov runs: best of rounds per N, instance count and variant.
vl=$dir/vlasov.csv
if [ -f "$vl" ] && [ "$(wc -l < "$vl")" -gt 1 ]; then
    awk -F, 'NR > 1 { k = $1 SUBSEP $2 SUBSEP $3; if (!(k in b) || $5 + 0 < b[k]) b[k] = $5 + 0 }
        END { for (k in b) { split(k, f, SUBSEP); if (f[3] == "compute") continue
                             c = b[f[1], f[2], "compute"]; if (c > 0) print f[1], f[2], f[3], b[k], b[k] / c } }' "$vl" \
        | sort -n > "$tmp/vl"
    for v in hand-mpi mdl-mpi mdl-shm; do awk -v v="$v" '$2 == 2 && $3 == v' "$tmp/vl" > "$tmp/vl-$v-2"; done
    awk -F, 'NR > 1 && $3 == "compute" && $2 == 2 { if (!($1 in b) || $5 + 0 < b[$1]) b[$1] = $5 + 0 }
        END { for (n in b) print n, b[n] }' "$vl" | sort -n > "$tmp/vl-compute-2"
    # the thesis (Table 11.1, 4 processors): time / compute of MDL(MPI), MDL(SHM)
    printf '256 1.0400 1.0791\n512 1.0472 1.0875\n1024 1.0662 1.0789\n2048 1.0497 1.0784\n' > "$tmp/thesis"
    gnuplot <<EOF
set terminal $term
set output '$dir/vlasov.png'
set multiplot layout 1,2 title "Vlasov code (examples/vlasov), best of rounds"
set logscale x 2
set xrange [200:2600]
set xtics (256, 512, 1024, 2048)
set xlabel "mesh N (N x N)"
set grid
set key top left
set title "2 instances (one per core)"
set logscale y
set ylabel "seconds"
plot '$tmp/vl-hand-mpi-2' u 1:4 w lp t 'hand-written MPI', \
     '$tmp/vl-mdl-mpi-2' u 1:4 w lp t 'MeDLey, MPI runtime', \
     '$tmp/vl-mdl-shm-2' u 1:4 w lp t 'MeDLey, shm runtime', \
     '$tmp/vl-compute-2' u 1:2 w lp dt 2 t 'computation alone'
set title "time / computation time, 2 instances (lower is better)"
unset logscale y
set ylabel "ratio"
set key top right
plot '$tmp/vl-hand-mpi-2' u 1:5 w lp t 'hand-written MPI', \
     '$tmp/vl-mdl-mpi-2' u 1:5 w lp t 'MeDLey, MPI runtime', \
     '$tmp/vl-mdl-shm-2' u 1:5 w lp t 'MeDLey, shm runtime', \
     '$tmp/thesis' u 1:2 w lp dt 2 lc rgb 'gray' t 'thesis MDL(MPI), 4 proc.', \
     '$tmp/thesis' u 1:3 w lp dt 3 lc rgb 'gray' t 'thesis MDL(SHM), 4 proc.', \
     1.04 w l dt 4 lc rgb 'black' t '1.04', 1.10 w l dt 5 lc rgb 'black' t '1.10'
unset multiplot
EOF
fi

if [ -f "$comp" ]; then
    awk -F, '$4 == "check" && $5 ~ /^[0-9.]+$/ { print $1, $5, $6 }' "$comp" > "$tmp/c-check"
    awk -F, '$4 == "generate" && $5 ~ /^[0-9.]+$/ { print $1, $5, $6, $7 }' "$comp" > "$tmp/c-gen"
    if [ -s "$tmp/c-check" ]; then
        gnuplot <<EOF
set terminal $term
set output '$dir/compiler.png'
set multiplot layout 1,2 title "medleyc on generated specs (messages, messages/10 tasks)"
set logscale xy
set xlabel "messages (send/receive pairs)"
set grid
set key top left
set ylabel "seconds"
plot '$tmp/c-check' u 1:(\$2 > 0 ? \$2 : 0.005) w lp t '--check (parse + checks)', \
     '$tmp/c-gen' u 1:(\$2 > 0 ? \$2 : 0.005) w lp t 'full generation', \
     '$tmp/c-check' u 1:(\$1 * 1e-4) w l dt 2 lc rgb 'gray' t 'linear (1 s at 10,000)'
set ylabel "peak memory (MiB)"
plot '$tmp/c-check' u 1:(\$3/1024) w lp t '--check', \
     '$tmp/c-gen' u 1:(\$3/1024) w lp t 'full generation', \
     '$tmp/c-gen' u 1:(\$4/1048576) w lp t 'generated output (MiB)'
unset multiplot
EOF
    fi
fi
ls "$dir"/*.png 2>/dev/null | sed 's/^/plot: /' >&2
