! vlasov.f90 — vlasov.c in Fortran (medleyc --fortran): the kernels of
! vlasov_numerics.h and the run of vlasov.c with the same arithmetic in the
! same order, so that built with -ffp-contract=off on both sides it prints
! the same W(t) as the C program, bit for bit (its "bits:" line;
! tests/suite-examples.sh compares them), alone or with C instances in one
! job.  C's f[v][x] is f(x, v) here (the view MDL_View_f gives); indices are 0-based as in C.
!
!   vlasov [--mesh NX NV] [TMAX [ALPHA]]        as vlasov.c
!   vlasov [--mesh NX NV] --bench STEPS [WFILE] as vlasov.c: the same "bench:"
!                                line and W file, for bench/vlasov's Fortran
!                                column
!   vlasov --help                               this usage
module vlasov_numerics
  use, intrinsic :: iso_c_binding, only: dp => c_double
  use, intrinsic :: iso_fortran_env, only: int64
  implicit none
  private
  public :: dp, PI, DT, NX_DEFAULT, NV_DEFAULT, nx, nv, scratch, mesh_set, mesh_invalid, &
      scratch_allocate, advect_x, advect_v, moments, solve_field, initial

  real(dp), parameter :: PI = 3.14159265358979323846_dp
  real(dp), parameter :: K = 0.5_dp                   ! wave number of the perturbation
  real(dp), parameter :: VMAX = 6.0_dp
  real(dp), parameter :: DT = 0.1_dp
  real(dp), parameter :: L = 2 * PI / K
  integer, parameter :: TILE = 16
  integer, parameter :: NX_DEFAULT = 64, NV_DEFAULT = 128   ! the mesh without --mesh

  ! the mesh, given at run time (mesh_set): positions, velocities, the
  ! larger of both, and the spacings
  integer, protected :: nx = NX_DEFAULT, nv = NV_DEFAULT, nmax = NV_DEFAULT
  real(dp), protected :: dx, dv

  ! a spline row with its ghost cells (row(1) is C's c[0]), and a tile of
  ! columns with theirs (tile(TILE) is C's c[0]); sized by scratch_allocate
  type :: scratch
    real(dp), allocatable :: row(:)             ! 0:nmax + 3
    real(dp), allocatable :: tile(:)            ! 0:(nv + 4) * TILE - 1
  end type scratch

  type :: shift_stencil
    real(dp) :: w0, w1, w2, w3
    integer :: base
  end type shift_stencil

contains

  ! vlasov_numerics.h's mesh_invalid: why nx_, nv_ cannot be a mesh, or ""
  function mesh_invalid(nx_, nv_)
    integer, intent(in) :: nx_, nv_
    character(len=:), allocatable :: mesh_invalid
    mesh_invalid = ""
    if (nx_ < 4 .or. iand(nx_, nx_ - 1) /= 0) then
      mesh_invalid = "NX must be a power of two, at least 4 (FFT field solver)"
    else if (nv_ < 4) then
      mesh_invalid = "NV must be at least 4"
    end if
  end function mesh_invalid

  ! the mesh nx_ x nv_ (mesh_invalid(nx_, nv_) == "")
  subroutine mesh_set(nx_, nv_)
    integer, intent(in) :: nx_, nv_
    nx = nx_
    nv = nv_
    nmax = max(nx, nv)
    dx = 2 * PI / K / nx
    dv = 2 * VMAX / nv
  end subroutine mesh_set

  subroutine scratch_allocate(s)
    type(scratch), allocatable, intent(out) :: s
    allocate(s)
    allocate(s%row(0:nmax + 3), s%tile(0:(nv + 4) * TILE - 1))
  end subroutine scratch_allocate

  ! vlasov_numerics.h's spline_coefficients: w interleaved periodic
  ! sequences of n samples, c(i * w + k)
  subroutine spline_coefficients(c, n, w)
    integer, intent(in) :: n, w
    real(dp), intent(inout) :: c(0:n * w - 1)
    integer, parameter :: DEPTH = 30                  ! r**30 < 1e-17
    real(dp) :: r, p, s(0:TILE - 1)
    integer :: i, j, kk, src
    r = 2 - sqrt(3.0_dp)
    p = 1
    s(0:w - 1) = 0
    ! the history's index walks back from 0, wrapped by hand (no division
    ! by the run-time n per term)
    src = 0
    do j = 0, DEPTH - 1
      do kk = 0, w - 1
        s(kk) = s(kk) + p * c(src * w + kk)
      end do
      p = p * (-r)
      src = merge(n - 1, src - 1, src == 0)
    end do
    c(0:w - 1) = s(0:w - 1)
    do i = 1, n - 1
      do kk = 0, w - 1
        c(i * w + kk) = c(i * w + kk) - r * c((i - 1) * w + kk)
      end do
    end do
    p = 1
    s(0:w - 1) = 0
    src = n - 1
    do j = 0, DEPTH - 1
      do kk = 0, w - 1
        s(kk) = s(kk) + p * c(src * w + kk)
      end do
      p = p * (-r)
      src = merge(0, src + 1, src == n - 1)
    end do
    c((n - 1) * w:n * w - 1) = s(0:w - 1)
    do i = n - 2, 0, -1
      do kk = 0, w - 1
        c(i * w + kk) = c(i * w + kk) - r * c((i + 1) * w + kk)
      end do
    end do
    do i = 0, n * w - 1
      c(i) = c(i) * (6 * r)
    end do
  end subroutine spline_coefficients

  ! the interpolation of a shift by `shift` grid units (value at i - shift)
  type(shift_stencil) function stencil(shift, n) result(s)
    real(dp), intent(in) :: shift
    integer, intent(in) :: n
    real(dp) :: pos, m, t
    pos = -shift
    m = real(floor(pos, int64), dp)
    t = pos - m
    s%w0 = (1 - t) * (1 - t) * (1 - t) / 6
    s%w1 = (3 * t * t * t - 6 * t * t + 4) / 6
    s%w2 = (-3 * t * t * t + 3 * t * t + 3 * t + 1) / 6
    s%w3 = t * t * t / 6
    s%base = int(modulo(int(m, int64), int(n, int64)))
  end function stencil

  ! ghost samples of w interleaved periodic sequences: index -1 and n, n+1, n+2
  subroutine periodic_ghosts(c, n, w)
    integer, intent(in) :: n, w
    real(dp), intent(inout) :: c(-w:(n + 3) * w - 1)
    c(-w:-1) = c((n - 1) * w:n * w - 1)
    c(n * w:(n + 3) * w - 1) = c(0:3 * w - 1)
  end subroutine periodic_ghosts

  real(dp) function vel(j)
    integer, intent(in) :: j
    vel = -VMAX + j * DV
  end function vel

  ! x-advection by tau of rows v0..v1 (velocities)
  subroutine advect_x(f, v0, v1, tau, s)
    real(dp), intent(inout) :: f(0:NX - 1, 0:NV - 1)
    integer, intent(in) :: v0, v1
    real(dp), intent(in) :: tau
    type(scratch), intent(inout) :: s
    call advect_rows(f, v0, v1, tau, s%row)
  end subroutine advect_x

  subroutine advect_rows(f, v0, v1, tau, c)
    real(dp), intent(inout) :: f(0:NX - 1, 0:NV - 1)
    integer, intent(in) :: v0, v1
    real(dp), intent(in) :: tau
    real(dp), intent(inout) :: c(-1:NMAX + 2)
    type(shift_stencil) :: st
    integer :: v, i, j
    do v = v0, v1
      c(0:NX - 1) = f(:, v)
      call spline_coefficients(c(0), NX, 1)
      call periodic_ghosts(c(-1), NX, 1)
      st = stencil(vel(v) * tau / DX, NX)
      i = 0
      do j = st%base, NX - 1
        f(i, v) = st%w0 * c(j - 1) + st%w1 * c(j) + st%w2 * c(j + 1) + st%w3 * c(j + 2)
        i = i + 1
      end do
      do j = 0, NX - 1 - i
        f(i, v) = st%w0 * c(j - 1) + st%w1 * c(j) + st%w2 * c(j + 1) + st%w3 * c(j + 2)
        i = i + 1
      end do
    end do
  end subroutine advect_rows

  ! v-advection by tau of columns x0..x1 (positions) in the field E, TILE
  ! columns at a time
  subroutine advect_v(f, x0, x1, E, tau, s)
    real(dp), intent(inout) :: f(0:NX - 1, 0:NV - 1)
    integer, intent(in) :: x0, x1
    real(dp), intent(in) :: E(0:NX - 1), tau
    type(scratch), intent(inout) :: s
    integer :: xt, w
    do xt = x0, x1, TILE
      w = min(x1 - xt + 1, TILE)
      call advect_tile(f, xt, w, E, tau, s%tile(TILE - w))
    end do
  end subroutine advect_v

  subroutine advect_tile(f, xt, w, E, tau, c)
    real(dp), intent(inout) :: f(0:NX - 1, 0:NV - 1)
    integer, intent(in) :: xt, w
    real(dp), intent(in) :: E(0:NX - 1), tau
    real(dp), intent(inout) :: c(-w:(NV + 3) * w - 1)
    type(shift_stencil) :: st(0:TILE - 1)
    integer :: v, kk, j, cj
    do v = 0, NV - 1
      c(v * w:v * w + w - 1) = f(xt:xt + w - 1, v)
    end do
    call spline_coefficients(c(0), NV, w)
    call periodic_ghosts(c(-w), NV, w)
    do kk = 0, w - 1
      st(kk) = stencil(E(xt + kk) * tau / DV, NV)
    end do
    do v = 0, NV - 1
      do kk = 0, w - 1
        j = v + st(kk)%base
        if (j >= NV) j = j - NV
        cj = j * w + kk
        f(xt + kk, v) = st(kk)%w0 * c(cj - w) + st(kk)%w1 * c(cj) + st(kk)%w2 * c(cj + w) + &
            st(kk)%w3 * c(cj + 2 * w)
      end do
    end do
  end subroutine advect_tile

  ! the share of rows v0..v1 in rho(x) and in the kinetic energy (returned)
  real(dp) function moments(f, v0, v1, rho) result(kin)
    real(dp), intent(in) :: f(0:NX - 1, 0:NV - 1)
    integer, intent(in) :: v0, v1
    real(dp), intent(out) :: rho(0:NX - 1)
    real(dp) :: u, row_sum
    integer :: v, i
    kin = 0
    rho = 0
    do v = v0, v1
      u = vel(v)
      row_sum = 0
      do i = 0, NX - 1
        rho(i) = rho(i) + f(i, v) * DV
        row_sum = row_sum + f(i, v)
      end do
      kin = kin + 0.5_dp * u * u * row_sum * DX * DV
    end do
  end function moments

  ! in-place radix-2 FFT of NX complex values; dir -1 forward, +1 backward
  subroutine fft(re, im, dir)
    real(dp), intent(inout) :: re(0:NX - 1), im(0:NX - 1)
    integer, intent(in) :: dir
    real(dp), allocatable, save :: twr(:), twi(:)
    logical, save :: ready = .false.
    real(dp) :: tr, ti, wr, wi, xr, xi
    integer :: i, j, kk, bit, len
    if (.not. ready) then
      allocate(twr(0:NX / 2 - 1), twi(0:NX / 2 - 1))
      do kk = 0, NX / 2 - 1
        twr(kk) = cos(2 * PI * kk / NX)
        twi(kk) = sin(2 * PI * kk / NX)
      end do
      ready = .true.
    end if
    j = 0
    do i = 1, NX - 1
      bit = NX / 2
      do while (iand(j, bit) /= 0)
        j = ieor(j, bit)
        bit = bit / 2
      end do
      j = ior(j, bit)
      if (i < j) then
        tr = re(i)
        ti = im(i)
        re(i) = re(j)
        im(i) = im(j)
        re(j) = tr
        im(j) = ti
      end if
    end do
    len = 2
    do while (len <= NX)
      do kk = 0, len / 2 - 1
        wr = twr(kk * (NX / len))
        wi = dir * twi(kk * (NX / len))
        do i = kk, NX - 1, len
          j = i + len / 2
          xr = re(j) * wr - im(j) * wi
          xi = re(j) * wi + im(j) * wr
          re(j) = re(i) - xr
          im(j) = im(i) - xi
          re(i) = re(i) + xr
          im(i) = im(i) + xi
        end do
      end do
      len = len * 2
    end do
  end subroutine fft

  ! dE/dx = rho - 1 spectrally; returns the electric energy
  real(dp) function solve_field(rho, E) result(w)
    real(dp), intent(in) :: rho(0:NX - 1)
    real(dp), intent(out) :: E(0:NX - 1)
    real(dp) :: re(0:NX - 1), im(0:NX - 1), km, er, ei
    integer :: i, m
    do i = 0, NX - 1
      re(i) = rho(i) - 1
      im(i) = 0
    end do
    call fft(re, im, -1)
    re(0) = 0
    im(0) = 0
    re(NX / 2) = 0
    im(NX / 2) = 0
    do m = 1, NX / 2 - 1
      km = 2 * PI * m / L
      er = im(m) / km
      ei = -re(m) / km
      re(m) = er
      im(m) = ei
      re(NX - m) = er
      im(NX - m) = -ei
    end do
    call fft(re, im, +1)
    w = 0
    do i = 0, NX - 1
      E(i) = re(i) / NX
      w = w + 0.5_dp * E(i) * E(i) * DX
    end do
  end function solve_field

  ! rows v0..v1 of the initial distribution
  subroutine initial(f, v0, v1, alpha)
    real(dp), intent(inout) :: f(0:NX - 1, 0:NV - 1)
    integer, intent(in) :: v0, v1
    real(dp), intent(in) :: alpha
    real(dp) :: u, g
    integer :: v, i
    do v = v0, v1
      u = vel(v)
      g = exp(-0.5_dp * u * u) / sqrt(2 * PI)
      do i = 0, NX - 1
        f(i, v) = (1 + alpha * cos(K * i * DX)) * g
      end do
    end do
  end subroutine initial
end module vlasov_numerics

program vlasov_f
  use vlasov_mdl
  use vlasov_numerics
  use, intrinsic :: iso_fortran_env, only: int64, error_unit
  implicit none
  real(dp), parameter :: GAMMA_REF = -0.1533_dp     ! linear theory, k = 0.5
  character(len=*), parameter :: USAGE = &
      "usage: vlasov [--mesh NX NV] [TMAX [ALPHA]]         default 64 x 128, 40, 0.01" // &
      new_line("a") // &
      "       vlasov [--mesh NX NV] --bench STEPS [WFILE]  a timed run of STEPS steps" // &
      new_line("a") // &
      "NX (positions) a power of two >= 4, NV (velocities) >= 4, both multiples of the" // &
      new_line("a") // "instance count"
  type(vlasov), pointer, asynchronous :: t => null()
  real(dp), pointer, asynchronous :: f(:, :), rho(:), rho_total(:), efield(:)
  integer :: me, np, steps, k, n, i
  integer :: a0                         ! arguments before TMAX or --bench: 3 after --mesh NX NV
  integer :: mesh_nx, mesh_nv
  character(len=:), allocatable :: bad_mesh
  real(dp) :: tmax, alpha, dev, drift, t_ser, t0, gamma_fit
  real(dp), allocatable :: W(:), Etot(:), Ws(:), tp(:), lnp(:), idx(:)
  integer(int64) :: wbits
  logical :: ok, bench_mode
  character(len=4096) :: arg

  call get_command_argument(1, arg)
  if (arg == "--help" .or. arg == "-h") then
    print '(a)', USAGE
    stop
  end if
  call MDL_Init(t)
  me = MDL_MyRank(t)
  np = MDL_FamilySize(t)
  a0 = 0
  mesh_nx = NX_DEFAULT
  mesh_nv = NV_DEFAULT
  bad_mesh = ""
  if (arg == "--mesh") then
    a0 = 3
    ok = mesh_arg(2, mesh_nx)
    if (.not. (mesh_arg(3, mesh_nv) .and. ok)) bad_mesh = "--mesh takes two numbers, NX and NV"
  end if
  if (bad_mesh == "") bad_mesh = mesh_invalid(mesh_nx, mesh_nv)
  call get_command_argument(a0 + 1, arg)
  bench_mode = arg == "--bench"
  tmax = 40
  alpha = 0.01_dp
  if (bench_mode) then
    steps = int_arg(a0 + 2, 0)
  else
    tmax = real_arg(a0 + 1, tmax)
    alpha = real_arg(a0 + 2, alpha)
    steps = int(tmax / DT + 0.5_dp)
  end if
  if (bad_mesh /= "" .or. mod(mesh_nx, np) /= 0 .or. mod(mesh_nv, np) /= 0 .or. &
      steps < merge(1, 3, bench_mode)) then
    if (me == 0) then
      if (bad_mesh /= "") then
        write (error_unit, '(2a)') "vlasov: ", bad_mesh
      else
        write (error_unit, '(a, i0, a, i0, a, i0, a)') "vlasov: ", np, &
            " instances must divide NX=", mesh_nx, " and NV=", mesh_nv, &
            "; TMAX >= 0.3, --bench STEPS >= 1"
      end if
      write (error_unit, '(a)') USAGE
    end if
    call MDL_Barrier(t)
    call MDL_End(t)
    error stop 2
  end if
  deallocate (bad_mesh)  ! a main program's allocatables live on: LeakSanitizer counts them
  call mesh_set(mesh_nx, mesh_nv)
  t%nx = nx
  t%nv = nv
  call MDL_Allocate(t)                  ! stops the program, saying why, if it fails
  call MDL_View_f(t, f)
  call MDL_View_rho(t, rho)
  call MDL_View_rho_total(t, rho_total)
  call MDL_View_efield(t, efield)
  allocate(W(0:steps - 1), Etot(0:steps - 1))
  call run_parallel(steps, alpha)
  ok = .true.
  if (bench_mode) then
    arg = ""
    if (command_argument_count() >= a0 + 3) call get_command_argument(a0 + 3, arg)
    if (me == 0) ok = bench_report(trim(arg))
  else if (me == 0) then
    allocate(Ws(0:steps - 1))
    t0 = now()
    call run_serial(steps, alpha)
    t_ser = now() - t0
    dev = maxval(abs(W - Ws)) / maxval(Ws)
    drift = abs(Etot(steps - 1) - Etot(0)) / Etot(0)
    print '(a, i0, a, i0, a, i0, a, f3.1, a, f0.1, a, f4.2, a)', "vlasov: ", NX, " x ", NV, &
        " mesh, ", np, " instances, dt = ", DT, ", t = 0..", steps * DT, ", alpha = ", alpha, &
        " (Fortran)"
    print '(a, f8.3, a, f8.3, a, f8.3, a)', "time: parallel ", t%slowest(0), " s (computation ", &
        t%slowest(1), " s, the rest in MDL calls), serial ", t_ser, " s"
    print '(a, es8.1)', "parallel vs serial: max |W - W_serial| / max W = ", dev
    print '(a, es8.1)', "total energy drift: ", drift
    ! every step's W: what the C program's "bits:" line holds too
    wbits = 0
    do k = 0, steps - 1
      wbits = ieor(wbits, transfer(W(k), 0_int64))
    end do
    print '(a, z16.16, a, z16.16)', "bits: W xor ", wbits, " last W ", &
        transfer(W(steps - 1), 0_int64)
    ok = dev <= 1d-10
    allocate(tp(0:steps - 1), lnp(0:steps - 1))
    n = peaks()
    if (tmax >= 20 .and. n >= 4) then
      gamma_fit = 0.5_dp * slope(tp, lnp, n)
      allocate(idx(0:n - 1))
      idx = [(real(i, dp), i = 0, n - 1)]
      print '(a, i0, a, f0.2, a, f0.2)', "peaks of the field energy: ", n, " between t = ", &
          tp(0), " and ", tp(n - 1)
      print '(a, f7.4, a, f7.4, a, f7.4)', "gamma = ", gamma_fit, " (theory ", GAMMA_REF, &
          "), omega = ", PI / slope(idx, tp, n)
      ok = ok .and. abs(gamma_fit - GAMMA_REF) <= 0.05_dp * abs(GAMMA_REF)
    else if (tmax >= 20) then
      print '(a, i0, a)', "only ", n, " peaks: no fit"
      ok = .false.
    else
      print '(a)', "TMAX < 20: no fit of gamma and omega"
    end if
    if (ok) then
      print '(a)', "vlasov: ok"
    else
      print '(a)', "vlasov: FAILED"
    end if
  end if
  ! (the main program's arrays too: LeakSanitizer counts what is left at exit)
  deallocate(W, Etot)
  if (allocated(Ws)) deallocate(Ws, tp, lnp)
  if (allocated(idx)) deallocate(idx)
  call MDL_End(t)
  if (.not. ok) error stop 1

contains

  real(dp) function now()
    integer(int64) :: count, rate
    call system_clock(count, rate)
    now = real(count, dp) / real(rate, dp)
  end function now

  integer function int_arg(kk, default)
    integer, intent(in) :: kk, default
    character(len=64) :: a
    int_arg = default
    if (command_argument_count() < kk) return
    call get_command_argument(kk, a)
    read (a, *) int_arg
  end function int_arg

  ! argument kk, a number, into size; .false. if it is none
  logical function mesh_arg(kk, size)
    integer, intent(in) :: kk
    integer, intent(out) :: size
    character(len=64) :: a
    integer :: st
    size = 0
    mesh_arg = .false.
    if (command_argument_count() < kk) return
    call get_command_argument(kk, a)
    read (a, *, iostat=st) size
    mesh_arg = st == 0
  end function mesh_arg

  real(dp) function real_arg(kk, default)
    integer, intent(in) :: kk
    real(dp), intent(in) :: default
    character(len=64) :: a
    real_arg = default
    if (command_argument_count() < kk) return
    call get_command_argument(kk, a)
    read (a, *) real_arg
  end function real_arg

  ! vlasov_numerics.h's bench_report: the run's time and its computation
  ! time, the slowest instance's each (not the time of a step: only
  ! bench/hosts.sh reads it, which runs the C programs), and W of every
  ! step into path (none if empty); .false. if the file cannot be written
  logical function bench_report(path)
    character(len=*), intent(in) :: path
    character(len=256) :: msg
    integer :: u, kk, st
    print '(a)', "bench: NX="//str(NX)//" NV="//str(NV)//" instances="//str(np)//" steps="// &
        str(steps)//" total="//fixed6(t%slowest(0))//" compute="//fixed6(t%slowest(1))
    bench_report = .true.
    if (path == "") return
    open (newunit=u, file=path, status="replace", action="write", iostat=st, iomsg=msg)
    if (st == 0) then
      do kk = 0, steps - 1
        write (u, '(i0, 1x, es0.17e2)', iostat=st, iomsg=msg) kk, W(kk)
        if (st /= 0) exit
      end do
      close (u)
    end if
    if (st /= 0) then
      write (error_unit, '(3a)') path, ": ", trim(msg)
      bench_report = .false.
    end if
  end function bench_report

  function str(i)
    integer, intent(in) :: i
    character(len=:), allocatable :: str
    character(len=16) :: b
    write (b, '(i0)') i
    str = trim(b)
  end function str

  ! C's %.6f: with the leading zero that f0.6 leaves out
  function fixed6(x)
    real(dp), intent(in) :: x
    character(len=:), allocatable :: fixed6
    character(len=32) :: b
    write (b, '(f32.6)') x
    fixed6 = trim(adjustl(b))
  end function fixed6

  ! vlasov.c's to_vslabs and to_xslabs: the blocks where my rows cross the
  ! others' columns, receives posted first, partners from my successor on
  subroutine to_vslabs(lv, lx, v0, v1, x0, x1)
    integer, intent(in) :: lv, lx, v0, v1, x0, x1
    integer :: kk, q
    do kk = 1, np - 1
      q = mod(me + kk, np)
      call MDL_RecvFrom_vlasov_into_vslab(t, q, q * lv, q * lv + lv - 1, x0, x1)
    end do
    do kk = 1, np - 1
      q = mod(me + kk, np)
      call MDL_SendTo_vlasov_to_vslab(t, q, v0, v1, q * lx, q * lx + lx - 1)
    end do
    call MDL_into_vslabWait(t)
    call MDL_to_vslabWait(t)
  end subroutine to_vslabs

  subroutine to_xslabs(lv, lx, v0, v1, x0, x1)
    integer, intent(in) :: lv, lx, v0, v1, x0, x1
    integer :: kk, q
    do kk = 1, np - 1
      q = mod(me + kk, np)
      call MDL_RecvFrom_vlasov_into_xslab(t, q, v0, v1, q * lx, q * lx + lx - 1)
    end do
    do kk = 1, np - 1
      q = mod(me + kk, np)
      call MDL_SendTo_vlasov_to_xslab(t, q, q * lv, q * lv + lv - 1, x0, x1)
    end do
    call MDL_into_xslabWait(t)
    call MDL_to_xslabWait(t)
  end subroutine to_xslabs

  subroutine run_parallel(nsteps, a)
    integer, intent(in) :: nsteps
    real(dp), intent(in) :: a
    type(scratch), allocatable :: scr
    integer :: lv, lx, v0, v1, x0, x1, s
    real(dp) :: t_comm, c0, start
    lv = NV / np
    lx = NX / np
    v0 = me * lv
    v1 = v0 + lv - 1
    x0 = me * lx
    x1 = x0 + lx - 1
    call scratch_allocate(scr)
    t_comm = 0
    call initial(f, v0, v1, a)
    call MDL_Barrier(t)
    start = now()
    do s = 0, nsteps - 1
      call advect_x(f, v0, v1, DT / 2, scr)
      t%energy = moments(f, v0, v1, rho)
      c0 = now()
      call MDL_Reduce_density(t)
      call MDL_Reduce_energy_sum(t)
      t_comm = t_comm + (now() - c0)
      if (me == 0) then
        W(s) = solve_field(rho_total, efield)
        Etot(s) = t%total_energy + W(s)
      end if
      c0 = now()
      call MDL_Bcast_field(t)
      call to_vslabs(lv, lx, v0, v1, x0, x1)
      t_comm = t_comm + (now() - c0)
      call advect_v(f, x0, x1, efield, DT, scr)
      c0 = now()
      call to_xslabs(lv, lx, v0, v1, x0, x1)
      t_comm = t_comm + (now() - c0)
      call advect_x(f, v0, v1, DT / 2, scr)
    end do
    t%times(0) = now() - start
    t%times(1) = t%times(0) - t_comm
    call MDL_Reduce_timing(t)
  end subroutine run_parallel

  subroutine run_serial(nsteps, a)
    integer, intent(in) :: nsteps
    real(dp), intent(in) :: a
    real(dp), allocatable :: f(:, :)
    type(scratch), allocatable :: scr
    real(dp) :: rho(0:NX - 1), E(0:NX - 1), kin
    integer :: s
    allocate(f(0:NX - 1, 0:NV - 1))
    call scratch_allocate(scr)
    call initial(f, 0, NV - 1, a)
    do s = 0, nsteps - 1
      call advect_x(f, 0, NV - 1, DT / 2, scr)
      kin = moments(f, 0, NV - 1, rho)
      Ws(s) = solve_field(rho, E)
      call advect_v(f, 0, NX - 1, E, DT, scr)
      call advect_x(f, 0, NV - 1, DT / 2, scr)
    end do
  end subroutine run_serial

  ! least-squares slope of y against x
  real(dp) function slope(x, y, m)
    integer, intent(in) :: m
    real(dp), intent(in) :: x(0:m - 1), y(0:m - 1)
    real(dp) :: mx, my, sxy, sxx
    integer :: j
    mx = 0
    my = 0
    sxy = 0
    sxx = 0
    do j = 0, m - 1
      mx = mx + x(j) / m
      my = my + y(j) / m
    end do
    do j = 0, m - 1
      sxy = sxy + (x(j) - mx) * (y(j) - my)
      sxx = sxx + (x(j) - mx) * (x(j) - mx)
    end do
    slope = sxy / sxx
  end function slope

  ! peaks of W refined by a parabola through ln W (into tp, lnp)
  integer function peaks()
    real(dp) :: a, b, c, d
    integer :: s
    peaks = 0
    do s = 1, steps - 2
      if (.not. (W(s) > W(s - 1) .and. W(s) >= W(s + 1))) cycle
      a = log(W(s - 1))
      b = log(W(s))
      c = log(W(s + 1))
      d = 0.5_dp * (a - c) / (a - 2 * b + c)
      tp(peaks) = (s + 0.5_dp + d) * DT
      lnp(peaks) = b - 0.25_dp * (a - c) * d
      peaks = peaks + 1
    end do
  end function peaks
end program vlasov_f
