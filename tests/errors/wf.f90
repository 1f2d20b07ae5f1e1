! wf.f90 — the fatal misuses of w.c through the Fortran module: the lines
! must be the C program's (expected/fatal-rank, expected/fatal-truncate),
! whether the job ends in the C call (MDL_ERRORS unset) or, errors being
! returned, in the module because the call has no ierr (mode unchecked:
! first the same call with ierr, which takes the code without a line).
program wf
  use w_mdl
  use, intrinsic :: iso_c_binding, only: c_int
  implicit none
  type(w), pointer :: t => null()
  character(len=32) :: mode
  integer(c_int) :: me, code

  call get_command_argument(1, mode)
  call MDL_Init(t)
  me = MDL_MyRank(t)
  select case (trim(mode))
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
    error stop "wf: mode fatal-rank, fatal-truncate or unchecked"
  end select
  call MDL_Barrier(t)
  call MDL_End(t)
end program wf
