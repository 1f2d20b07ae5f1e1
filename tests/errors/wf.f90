! wf.f90 — the misuses of w.c through the Fortran module.
! Mode all (errors returned, MDL_ERRORS=return,print): the calls of w.c
! that Fortran can make, each with ierr, which must hold the C call's code;
! the lines printed are expected/f90-all, and each is a line the C program
! printed in its run `all` (task g's: gf.f90, in the same job).  Not
! covered, as Fortran cannot make them (docs/generated-code.md, Fortran):
! C's NULL lists and NULL MDL_Init argument, MDL_Init_at (the C++ class's
! entry), and the runtime's own mdl_* calls (a grid call on task w, a task
! index out of range, a copy as the runtime handle, a layout check before
! MDL_Init).
! The fatal ones: the lines must be the C program's (expected/fatal-rank,
! expected/fatal-truncate), whether the job ends in the C call (MDL_ERRORS
! unset) or, errors being returned, in the module because the call has no
! ierr (mode unchecked: first the same call with ierr, which takes the code
! without a line).
program wf
  use w_mdl
  use, intrinsic :: iso_c_binding, only: c_int, c_null_ptr
  implicit none
  type(w), pointer, asynchronous :: t => null()
  type(w), pointer :: none => null()
  character(len=32) :: mode
  integer(c_int) :: me, code
  logical :: bad = .false.

  call get_command_argument(1, mode)
  if (trim(mode) == "all") call before_init()
  call MDL_Init(t)
  me = MDL_MyRank(t)
  select case (trim(mode))
  case ("all")
    call all_misuses()
    if (bad) error stop 1
    print '(a, i0, a)', "wf ", me, ": OK"
    stop
  case ("fatal-rank")
    if (me == 0) call MDL_SendTo_w_part(t, 5, 0, 1)
  case ("fatal-truncate")
    if (me == 0) then
      call MDL_SendTo_w_part(t, 1, 0, 7)
    else
      call MDL_RecvFrom_w_part(t, 0, 0, 3)
    end if
  case ("unchecked")
    if (me == 0) then
      call MDL_SendTo_w_part(t, 5, 0, 1, ierr=code)
      print '(a, i0, a, i0)', "wf ", me, ": ierr ", code
      if (code == MDL_ERR_RANK) call MDL_SendTo_w_part(t, 5, 0, 1)
    end if
  case default
    error stop "wf: mode all, fatal-rank, fatal-truncate or unchecked"
  end select
  call MDL_Barrier(t)
  call MDL_End(t)

contains

  subroutine want(got, expected, what)
    integer(c_int), intent(in) :: got, expected
    character(len=*), intent(in) :: what
    if (got /= expected) then
      print '(a, i0, 3a, i0, a, i0)', "wf ", me, ": ", what, " returned ", got, &
        ", expected ", expected
      bad = .true.
    end if
  end subroutine want

  ! Lines of different calls must not depend on timing: every instance
  ! finishes a group of calls before the next group starts.
  subroutine sync_all()
    call MDL_Barrier(t, ierr=code)
    call want(code, MDL_SUCCESS, "barrier")
  end subroutine sync_all

  subroutine before_init()
    integer(c_int) :: r
    me = -1
    call MDL_SendTo_w_part(none, 1, 0, 1, ierr=code)
    call want(code, MDL_ERR_STATE, "a send before MDL_Init")
    call MDL_RecvFrom_w_part(none, MDL_ANY, 0, 1, ierr=code)
    call want(code, MDL_ERR_STATE, "a receive before MDL_Init")
    call MDL_lateWait(none, ierr=code)
    call want(code, MDL_ERR_STATE, "a Wait before MDL_Init")
    call MDL_Gather_g(none, ierr=code)
    call want(code, MDL_ERR_STATE, "a Gather before MDL_Init")
    call MDL_Barrier(none, ierr=code)
    call want(code, MDL_ERR_STATE, "a barrier before MDL_Init")
    r = MDL_MyRank(none, ierr=code)
    call want(code, MDL_ERR_STATE, "MDL_MyRank before MDL_Init")
    call MDL_End(none, ierr=code)
    call want(code, MDL_ERR_STATE, "MDL_End before MDL_Init")
  end subroutine before_init

  subroutine point_to_point()
    integer(c_int) :: other, j
    integer(c_int), parameter :: dup(2) = [1, 1], out(2) = [0, 2], longer(3) = [0, 1, 0]
    other = 1 - me
    call MDL_SendTo_w_part(t, 5, 0, 1, ierr=code)
    call want(code, MDL_ERR_RANK, "send to instance 5")
    call MDL_SendTo_w_part(t, MDL_ANY, 0, 1, ierr=code)
    call want(code, MDL_ERR_RANK, "send to MDL_ANY")
    call MDL_SendTo_w_part(t, -3, 0, 1, ierr=code)
    call want(code, MDL_ERR_RANK, "send to instance -3")
    call MDL_RecvFrom_w_part(t, 9, 0, 1, ierr=code)
    call want(code, MDL_ERR_RANK, "receive from instance 9")
    call MDL_SendTo_w_part(t, other, 0, 8, ierr=code)
    call want(code, MDL_ERR_BOUNDS, "section past the end")
    call MDL_SendTo_w_part(t, other, -1, 2, ierr=code)
    call want(code, MDL_ERR_BOUNDS, "negative bound")
    call MDL_SendTo_w_part(t, other, 5, 2, ierr=code)
    call want(code, MDL_ERR_BOUNDS, "lo > hi + 1")
    call MDL_RecvFrom_w_part(t, other, 2, 9, ierr=code)
    call want(code, MDL_ERR_BOUNDS, "receive past the end")
    t%p = c_null_ptr
    call MDL_SendTo_w_ptr(t, other, 0, 3, ierr=code)
    call want(code, MDL_ERR_BOUNDS, "NULL pointer item")
    call MDL_SendTo_w_ml(t, dup, 2, ierr=code)
    call want(code, MDL_ERR_RANK, "list with a duplicate")
    call MDL_SendTo_w_ml(t, out, 2, ierr=code)
    call want(code, MDL_ERR_RANK, "list out of range")
    call MDL_SendTo_w_ml(t, dup, -1, ierr=code)
    call want(code, MDL_ERR_ARG, "negative list length")
    call MDL_SendTo_w_ml(t, longer, huge(0_c_int), ierr=code)
    call want(code, MDL_ERR_RANK, "list length far too large")
    call MDL_Sbarrier(t, dup, 2, ierr=code)
    call want(code, MDL_ERR_RANK, "Sbarrier list with a duplicate")
    call MDL_Sbarrier(t, out, 2, ierr=code)
    call want(code, MDL_ERR_RANK, "Sbarrier list out of range")
    call sync_all()

    ! sizes that disagree: the receiver reports
    do j = 0, 7                 ! (no array assignment: the suite also builds wf
      t%V(j) = j                !  with a module whose V is longer)
    end do
    if (me == 0) then
      call MDL_SendTo_w_part(t, 1, 0, 7, ierr=code)
      call want(code, MDL_SUCCESS, "send 8")
      call MDL_SendTo_w_part(t, 1, 0, 3, ierr=code)
      call want(code, MDL_SUCCESS, "send 4")
      call MDL_SendTo_w_late(t, 1, 0, 7, ierr=code)
      call want(code, MDL_SUCCESS, "async send 8")
      call MDL_lateWait(t, ierr=code)
      call want(code, MDL_SUCCESS, "wait for the async send")
    else
      call MDL_RecvFrom_w_part(t, 0, 0, 3, ierr=code)
      call want(code, MDL_ERR_TRUNCATE, "8 into a receive of 4")
      call MDL_RecvFrom_w_part(t, 0, 0, 7, ierr=code)
      call want(code, MDL_ERR_TRUNCATE, "4 into a receive of 8")
      call MDL_RecvFrom_w_late(t, 0, 0, 1, ierr=code)
      call want(code, MDL_SUCCESS, "async receive of 2")
      call MDL_lateWait(t, ierr=code)
      call want(code, MDL_ERR_TRUNCATE, "8 into an async receive of 2")
    end if
    call sync_all()
  end subroutine point_to_point

  subroutine collectives()
    integer(c_int), parameter :: dup(2) = [1, 1], out(2) = [0, 2]
    t%n = 5                     ! 2 x 5 elements do not fit in b(0:3)
    call MDL_Gather_g(t, ierr=code)
    call want(code, MDL_ERR_BOUNDS, "Gather count beyond the receive")
    call MDL_Allreduce_ar(t, ierr=code)
    call want(code, MDL_ERR_BOUNDS, "Allreduce count beyond the variables")
    t%n = -1
    call MDL_Gather_g(t, ierr=code)
    call want(code, MDL_ERR_ARG, "negative Gather count")
    call MDL_Gather_g3(t, ierr=code)
    call want(code, MDL_ERR_RANK, "root 3 of 2 instances")
    call MDL_Mcast_mc(t, dup, 2, ierr=code)
    call want(code, MDL_ERR_RANK, "Mcast list with a duplicate")
    call MDL_Mcast_mc(t, out, 2, ierr=code)
    call want(code, MDL_ERR_RANK, "Mcast list out of range")
    t%tbl = [1, 5, -1]
    call MDL_Mcast_mt(t, ierr=code)
    call want(code, MDL_ERR_RANK, "Mcast table out of range")
    t%tbl(1) = 1
    call MDL_Mcast_mt(t, ierr=code)
    call want(code, MDL_ERR_RANK, "Mcast table with a duplicate")
    t%counts = [-1, 1]
    t%displs = [0, 1]
    call MDL_ScatterV_sv(t, ierr=code)
    call want(code, MDL_ERR_ARG, "negative count in counts")
    t%counts(0) = 1
    t%displs(1) = 16
    call MDL_ScatterV_sv(t, ierr=code)
    call want(code, MDL_ERR_BOUNDS, "block past the send variable")
    t%counts(0) = 3
    t%displs(1) = 3
    call MDL_ScatterV_sv(t, ierr=code)
    call want(code, MDL_ERR_BOUNDS, "block larger than the receive")
    t%displs(1) = -2
    call MDL_ScatterV_sv(t, ierr=code)
    call want(code, MDL_ERR_ARG, "negative displacement")
    call sync_all()
    ! counts that differ between instances: the root gets a block larger
    ! than its place
    t%counts = [2, merge(1, 2, me == 0)]
    t%displs = [0, 2]
    call MDL_GatherV_gv(t, ierr=code)
    call want(code, merge(MDL_ERR_TRUNCATE, MDL_SUCCESS, me == 0), "GatherV counts differ")
    call sync_all()
  end subroutine collectives

  subroutine all_misuses()
    type(w), pointer :: t2 => null(), other => null()
    type(w), allocatable, target :: copy
    call MDL_Init(t2, ierr=code)
    call want(code, MDL_ERR_STATE, "MDL_Init twice")
    call MDL_SendTo_w_part(none, 0, 0, 1, ierr=code)
    call want(code, MDL_ERR_ARG, "a send through NULL after MDL_Init")
    call sync_all()
    call point_to_point()
    call collectives()
    allocate(copy, source=t)
    other => copy
    call MDL_End(other, ierr=code)
    call want(code, MDL_ERR_ARG, "MDL_End of another object")
    call MDL_End(t, ierr=code)
    call want(code, MDL_SUCCESS, "MDL_End")
    call MDL_Barrier(other, ierr=code)
    call want(code, MDL_ERR_STATE, "a call after MDL_End")
    call MDL_Barrier(none, ierr=code)
    call want(code, MDL_ERR_STATE, "a call through NULL after MDL_End")
    call MDL_Init(t2, ierr=code)
    call want(code, MDL_ERR_STATE, "MDL_Init after MDL_End")
  end subroutine all_misuses
end program wf
