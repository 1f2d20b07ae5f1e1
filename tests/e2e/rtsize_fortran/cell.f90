! cell.f90 — the Fortran twin of e2e/rtsize's cell.c: three phases, each
! with a shape (a, b) all instances agree on, set with MDL_Allocate and
! seen through the views MDL_View_<v> give (C's U[i][j] is U(j, i), the
! same 0-based bounds reversed).  Phase 2 changes the shape (new storage,
! zeroed: the views are taken again), phase 3 keeps it (storage and
! contents kept); ps, sized by k alone, keeps its storage throughout.  A
! view follows the storage, not the size variables: changed without
! MDL_Allocate, they leave it as it was.
program cell_f
  use cell_mdl
  use, intrinsic :: iso_c_binding, only: c_int, c_long, c_double, c_ptr, c_loc, &
      c_associated, c_null_ptr
  implicit none
  type(cell), pointer :: t => null()
  real(c_double), pointer, asynchronous :: U(:, :), blk(:, :), rcv(:, :), row(:), gathered(:), &
      tot(:)
  type(P), pointer, asynchronous :: ps(:)
  integer(c_int) :: me, n, dims(2), c(2), ph
  integer(c_int), parameter :: shapes(2, 3) = reshape([3, 5, 7, 2, 7, 2], [2, 3])
  type(c_ptr) :: ps_was = c_null_ptr, u_was = c_null_ptr

  call MDL_Init(t)
  me = MDL_MyRank(t)
  n = MDL_FamilySize(t)
  dims = 0
  call MDL_Grid_Create(t, dims)
  call MDL_Grid_Mycoords(t, c)
  call MDL_View_U(t, U)
  if (associated(U)) call fail("a view before MDL_Allocate is associated", 0)
  t%k = 2
  t%n = n
  do ph = 1, 3
    t%a = shapes(1, ph)
    t%b = shapes(2, ph)
    call MDL_Allocate(t)
    call MDL_View_U(t, U)
    call MDL_View_blk(t, blk)
    call MDL_View_rcv(t, rcv)
    call MDL_View_ps(t, ps)
    call MDL_View_row(t, row)
    call MDL_View_all(t, gathered)
    call MDL_View_tot(t, tot)
    if (any(lbound(U) /= 0) .or. any(ubound(U) /= [t%b + 1, t%a + 1])) &
        call fail("the bounds of the view of U", ph)
    if (any(ubound(rcv) /= [t%b, t%a]) .or. size(gathered) /= t%b * n .or. size(ps) /= 2) &
        call fail("the bounds of a view", ph)
    if (ph > 1 .and. .not. same(c_loc(ps(0)), ps_was)) &
        call fail("ps moved though its size did not change", ph)
    if (ph == 3 .and. .not. same(c_loc(U(0, 0)), u_was)) &
        call fail("U moved though its shape did not change", ph)
    ps_was = c_loc(ps(0))
    u_was = c_loc(U(0, 0))
    call phase(ph)
    call MDL_Barrier(t)
  end do
  ! sizes changed without MDL_Allocate: a view still has the storage's shape
  t%a = 99
  call MDL_View_U(t, U)
  if (any(ubound(U) /= [shapes(2, 3) + 1, shapes(1, 3) + 1])) &
      call fail("a view took the size variables, not the storage", 4)
  t%a = shapes(1, 3)
  if (me == 0) print '(a, i0, a, i0, a)', "rtsize ok on ", dims(1), " x ", dims(2), &
      " in 3 phases"
  call MDL_End(t)

contains

  logical function same(x, y)
    type(c_ptr), intent(in) :: x, y
    same = c_associated(x, y)
  end function same

  subroutine fail(what, ph)
    character(len=*), intent(in) :: what
    integer(c_int), intent(in) :: ph
    write (0, '(a, i0, a, i0, 2a)') "cell ", me, ": phase ", ph, ": ", what
    error stop 1
  end subroutine fail

  real(c_double) function val(rank, i, j, ph)
    integer(c_int), intent(in) :: rank, i, j, ph
    val = 100000.0_c_double * ph + 1000.0_c_double * rank + 10 * i + j
  end function val

  integer(c_int) function at(dx, dy)
    integer(c_int), intent(in) :: dx, dy
    integer(c_int) :: nc(2)
    nc = [c(1) + dx, c(2) + dy]
    at = MDL_PROC_NULL
    if (any(nc < 0) .or. any(nc >= dims)) return
    call MDL_Grid_Rank(t, nc, at)
  end function at

  ! fill, exchange, check (C's U[i][j] is U(j, i))
  subroutine phase(ph)
    integer(c_int), intent(in) :: ph
    integer(c_int) :: a, b, i, j, d, r, north, south, east, west, sw, src
    real(c_double) :: want
    a = t%a
    b = t%b
    do i = 0, a + 1
      do j = 0, b + 1
        if (ph /= 3 .and. U(j, i) /= 0) call fail("new storage not zeroed", ph)
        U(j, i) = -1
        if (i >= 1 .and. i <= a .and. j >= 1 .and. j <= b) U(j, i) = val(me, i, j, ph)
      end do
    end do
    rcv = -1
    do i = 0, a - 1
      do j = 0, b - 1
        blk(j, i) = val(me, i, j, ph) + 0.5_c_double
      end do
    end do
    do i = 0, t%k - 1
      ps(i)%id = 10 * me + i + ph
      do d = 0, 2
        ps(i)%x(d) = val(me, i, d, ph)
      end do
    end do
    north = at(0, 1)
    south = at(0, -1)
    east = at(1, 0)
    west = at(-1, 0)
    sw = at(-1, -1)
    call MDL_SendTo_cell_ns(t)
    call MDL_SendTo_cell_sn(t)
    call MDL_SendTo_cell_we(t)
    call MDL_SendTo_cell_ew(t)
    call MDL_SendTo_cell_dg(t)
    ! the block lands at rows 1..a, columns 0..b-1 of rcv: bounds in the
    ! spec's order
    call MDL_RecvFrom_cell_ns(t)
    call MDL_RecvFrom_cell_sn(t)
    call MDL_RecvFrom_cell_we(t)
    call MDL_RecvFrom_cell_ew(t)
    call MDL_RecvFrom_cell_dg(t, 1, a, 0, b - 1)
    call MDL_nsWait(t)
    call MDL_snWait(t)
    call MDL_weWait(t)
    call MDL_ewWait(t)
    call MDL_dgWait(t)
    do i = 1, a
      want = -1
      if (south >= 0) want = val(south, i, b, ph)
      if (U(0, i) /= want) call fail("south halo", ph)
      want = -1
      if (north >= 0) want = val(north, i, 1, ph)
      if (U(b + 1, i) /= want) call fail("north halo", ph)
    end do
    do j = 1, b
      want = -1
      if (west >= 0) want = val(west, a, j, ph)
      if (U(j, 0) /= want) call fail("west halo", ph)
      want = -1
      if (east >= 0) want = val(east, 1, j, ph)
      if (U(j, a + 1) /= want) call fail("east halo", ph)
    end do
    if (U(0, 0) /= -1 .or. U(b + 1, 0) /= -1 .or. U(0, a + 1) /= -1 .or. U(b + 1, a + 1) /= -1) &
        call fail("corner written", ph)
    do i = 0, a
      do j = 0, b
        want = -1
        if (i >= 1 .and. j <= b - 1 .and. sw >= 0) want = val(sw, i - 1, j, ph) + 0.5_c_double
        if (rcv(j, i) /= want) call fail("block", ph)
      end do
    end do
    src = me
    if (sw >= 0) src = sw   ! nothing arrives from outside the grid
    do i = 0, t%k - 1
      if (ps(i)%id /= 10 * src + i + ph) call fail("struct id", ph)
      do d = 0, 2
        if (ps(i)%x(d) /= val(src, i, d, ph)) call fail("struct field", ph)
      end do
    end do

    do j = 0, b - 1
      row(j) = val(me, 0, j, ph)
    end do
    call MDL_Allgather_g(t)
    do r = 0, n - 1
      do j = 0, b - 1
        if (gathered(r * b + j) /= val(r, 0, j, ph)) call fail("Allgather result", ph)
      end do
    end do
    call MDL_Allreduce_s(t)
    do j = 0, b - 1
      want = 0
      do r = 0, n - 1
        want = want + val(r, 0, j, ph)
      end do
      if (tot(j) /= want) call fail("Allreduce result", ph)
    end do
    gathered = 0
    t%m = b - 1
    call MDL_Gather_gt(t)
    do r = 0, n - 1
      do j = 0, b - 2
        if (me == 0 .and. gathered(r * (b - 1) + j) /= val(r, 0, j + 1, ph)) &
            call fail("Gather result", ph)
      end do
    end do
  end subroutine phase
end program cell_f
