! noeud.f90 — noeud.c in Fortran (medleyc --fortran): the same Jacobi
! iterations with the same arithmetic in the same order, so that built
! with -ffp-contract=off on both sides it prints the same numbers as the
! C program, bit for bit (its "bits:" line; tests/suite-examples.sh
! compares them).  U is sized at run time (poisson.mdl): set the block's
! extents, MDL_Allocate, then MDL_View_U gives the storage as the pointer
! array U(0:SUPj+1, 0:SUPi+1); C's U[i][j] is U(j, i) here.
!
!   noeud [G [PX PY [TOL [MAXIT]]]]      as noeud.c
program noeud_f
  use noeud_mdl
  use, intrinsic :: iso_c_binding, only: c_int, c_double
  use, intrinsic :: iso_fortran_env, only: int64, error_unit
  implicit none
  real(c_double), parameter :: PI = 3.14159265358979323846_c_double
  type(noeud), pointer :: t => null()
  integer(c_int) :: me, dims(0:1), c(0:1)
  integer :: G, max_iter, oi, oj, ni, nj, iter, i, j, k, w
  real(c_double) :: tol, h, dif, dev, err, exact, max_dev, max_err, s, lambda, umax, predicted
  ! asynchronous: the sends of halo_exchange read U until their waits
  real(c_double), pointer, asynchronous :: U(:, :)
  real(c_double), allocatable :: V(:, :), us(:, :), vs(:, :), swap(:, :)
  integer(int64) :: t0, t1, rate
  logical :: converged, err_ok, ok

  call MDL_Init(t)
  me = MDL_MyRank(t)
  G = int_arg(1, 24)
  dims = 0
  if (command_argument_count() >= 3) dims = [int_arg(2, 0), int_arg(3, 0)]
  tol = real_arg(4, 1d-9)
  max_iter = int_arg(5, 200000)
  call MDL_Grid_Create(t, dims)
  call MDL_Grid_Mycoords(t, c)
  call cut(G, dims(0), c(0), oi, ni)
  call cut(G, dims(1), c(1), oj, nj)
  if (G < 1 .or. ni < 1 .or. nj < 1) then
    if (me == 0) write (error_unit, '(a, i0, a, i0, a, i0, a)') "noeud: G=", G, " on ", &
        dims(0), " x ", dims(1), " instances: every block needs a point"
    call MDL_Barrier(t)
    call MDL_End(t)
    error stop 2
  end if
  h = 1.0_c_double / (G + 1)
  call system_clock(t0, rate)
  t%INFi = 1
  t%INFj = 1
  t%SUPi = ni
  t%SUPj = nj
  ! U, (ni+2) x (nj+2), starts at 0 (MDL_Allocate zeroes it), which is
  ! also the boundary value: halo cells facing the boundary
  ! (MDL_PROC_NULL neighbours) are never written.
  call MDL_Allocate(t)
  call MDL_View_U(t, U)
  allocate(V(0:nj + 1, 0:ni + 1))

  iter = 0
  do
    call halo_exchange()
    dif = 0
    do i = 1, ni
      do j = 1, nj
        V(j, i) = 0.25_c_double * (U(j, i - 1) + U(j, i + 1) + &
            U(j - 1, i) + U(j + 1, i) + h2f(oi + i, oj + j, h))
        dif = dif + (V(j, i) - U(j, i)) * (V(j, i) - U(j, i))
      end do
    end do
    do i = 1, ni
      do j = 1, nj
        U(j, i) = V(j, i)
      end do
    end do
    t%DIF = dif
    call MDL_Allreduce_m9(t)
    iter = iter + 1
    if (.not. (sqrt(t%SUM_DIF) >= tol .and. iter < max_iter)) exit
  end do
  call system_clock(t1)
  deallocate(V)

  ! the serial run, the same number of iterations
  w = G + 2
  allocate(us(0:w - 1, 0:w - 1), vs(0:w - 1, 0:w - 1), source=0.0_c_double)
  do k = 1, iter
    call serial_sweep(us, vs)
    call move_alloc(us, swap)
    call move_alloc(vs, us)
    call move_alloc(swap, vs)
  end do
  dev = 0
  err = 0
  do i = 1, ni
    do j = 1, nj
      exact = sin(PI * (oi + i) * h) * sin(PI * (oj + j) * h)
      dev = max(dev, abs(U(j, i) - us(oj + j, oi + i)))
      err = max(err, abs(U(j, i) - exact))
    end do
  end do
  deallocate(us, vs)       ! (a main program's arrays live to its end: leak checkers count them)
  t%DEV = dev
  call MDL_Allreduce_m10(t)
  max_dev = t%MAX_DEV
  t%DEV = err
  call MDL_Allreduce_m10(t)
  max_err = t%MAX_DEV

  s = sin(PI * h / 2)
  lambda = 8 * s * s / (h * h)
  umax = 0
  do i = 1, G
    umax = max(umax, sin(PI * i * h))
  end do
  predicted = (2 * PI * PI / lambda - 1) * umax * umax
  converged = sqrt(t%SUM_DIF) < tol
  err_ok = abs(max_err - predicted) <= 1d-2 * predicted
  ok = max_dev <= 1d-14 .and. (.not. converged .or. err_ok)
  if (me == 0) then
    print '(a, i0, a, i0, a, f8.6, a, i0, a, i0, a)', "poisson: ", G, " x ", G, &
        " interior points, h = ", h, ", ", dims(0), " x ", dims(1), " instances (Fortran)"
    print '(a, i0, a, es9.2, a, es7.0, a, f6.3, a)', "jacobi: ", iter, " iterations, last update ", &
        sqrt(t%SUM_DIF), " (tol ", tol, "), ", real(t1 - t0) / real(rate), " s"
    if (converged) then
      print '(a, es13.6, a, es13.6)', "error max|U - u| = ", max_err, ", predicted ", predicted
    else
      print '(a, i0, a)', "stopped after ", iter, " iterations (MAXIT), not converged: error not checked"
    end if
    print '(a, es8.1)', "parallel vs serial: max|U - U_serial| = ", max_dev
    print '(a, z16.16, a, z16.16, a, z16.16)', "bits: update ", transfer(t%SUM_DIF, 0_int64), &
        " error ", transfer(max_err, 0_int64), " deviation ", transfer(max_dev, 0_int64)
    if (ok) then
      print '(a)', "poisson: ok"
    else
      print '(a)', "poisson: FAILED"
    end if
  end if
  call MDL_End(t)
  if (.not. ok) error stop 1

contains

  integer function int_arg(k, default)
    integer, intent(in) :: k, default
    character(len=32) :: a
    int_arg = default
    if (command_argument_count() < k) return
    call get_command_argument(k, a)
    read (a, *) int_arg
  end function int_arg

  real(c_double) function real_arg(k, default)
    integer, intent(in) :: k
    real(c_double), intent(in) :: default
    character(len=32) :: a
    real_arg = default
    if (command_argument_count() < k) return
    call get_command_argument(k, a)
    read (a, *) real_arg
  end function real_arg

  ! First index and size of part c of n points cut into p parts (as noeud.c).
  subroutine cut(n, p, c, first, size)
    integer, intent(in) :: n
    integer(c_int), intent(in) :: p, c
    integer, intent(out) :: first, size
    size = n / p + merge(1, 0, c < mod(n, p))
    first = c * (n / p) + min(c, mod(n, p))
  end subroutine cut

  ! h² f at global interior point (gi, gj), 1-based; C's order of operations.
  real(c_double) function h2f(gi, gj, h)
    integer, intent(in) :: gi, gj
    real(c_double), intent(in) :: h
    h2f = h * h * 2 * PI * PI * sin(PI * gi * h) * sin(PI * gj * h)
  end function h2f

  subroutine serial_sweep(u, v)
    real(c_double), intent(in) :: u(0:, 0:)
    real(c_double), intent(inout) :: v(0:, 0:)
    integer :: i, j
    do i = 1, G
      do j = 1, G
        v(j, i) = 0.25_c_double * (u(j, i - 1) + u(j, i + 1) + u(j - 1, i) + u(j + 1, i) + &
            h2f(i, j, h))
      end do
    end do
  end subroutine serial_sweep

  subroutine halo_exchange()
    call MDL_SendTo_noeud_m1(t)
    call MDL_SendTo_noeud_m2(t)
    call MDL_SendTo_noeud_m3(t)
    call MDL_SendTo_noeud_m4(t)
    call MDL_RecvFrom_noeud_m5(t)
    call MDL_RecvFrom_noeud_m6(t)
    call MDL_RecvFrom_noeud_m7(t)
    call MDL_RecvFrom_noeud_m8(t)
    ! the sends read U: it must not change before they are complete
    call MDL_m1Wait(t)
    call MDL_m2Wait(t)
    call MDL_m3Wait(t)
    call MDL_m4Wait(t)
  end subroutine halo_exchange
end program noeud_f
